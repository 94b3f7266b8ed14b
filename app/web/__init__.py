"""HTTP plumbing shared by every router and page: the JSON envelope, request bounds, middleware,
the Content-Security-Policy and the HTML shell."""
