// Mounts ReactPy's client on the shell's #app (app/html_shell.py). It replaces the inline boot script of
// ReactPy's own shell, so the pages run under `script-src 'self'` (app/csp.py); the settings come from the
// mount element's data- attributes, written by the server from ReactPy's configuration.
const mount = document.getElementById("app");
const settings = mount.dataset;
const { mountReactPy } = await import(`${settings.pathPrefix}static/index.js`);
mountReactPy({
  mountElement: mount,
  pathPrefix: settings.pathPrefix,
  componentPath: "",
  reconnectInterval: Number(settings.reconnectInterval),
  reconnectMaxInterval: Number(settings.reconnectMaxInterval),
  reconnectMaxRetries: Number(settings.reconnectMaxRetries),
  reconnectBackoffMultiplier: Number(settings.reconnectBackoffMultiplier),
});
