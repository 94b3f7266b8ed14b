// Mounts ReactPy's client on the shell's #app (app/html_shell.py). It replaces the inline boot script of
// ReactPy's own shell, so the pages run under `script-src 'self'` (app/csp.py); the settings come from the
// mount element's data- attributes, written by the server from ReactPy's configuration.
import { installLeanEvents } from "./lean-events.js";

const mount = document.getElementById("app");
const settings = mount.dataset;
const client = import(`${settings.pathPrefix}static/index.js`);
// The console's fixes to the client (lean-events.js) hook into Preact before the first render; data-preact-options
// says which chunk of the client exports Preact's `options`, and is empty for a ReactPy version they do not know.
if (settings.preactOptions) {
  const [chunk, name] = settings.preactOptions.split("#");
  installLeanEvents((await import(`${settings.pathPrefix}static/${chunk}`))[name]);
}
const { mountReactPy } = await client;
mountReactPy({
  mountElement: mount,
  pathPrefix: settings.pathPrefix,
  componentPath: "",
  reconnectInterval: Number(settings.reconnectInterval),
  reconnectMaxInterval: Number(settings.reconnectMaxInterval),
  reconnectMaxRetries: Number(settings.reconnectMaxRetries),
  reconnectBackoffMultiplier: Number(settings.reconnectBackoffMultiplier),
});
