// Secrets never reach a log line or an error message: URLs are shown with credential-like
// query parameters masked.
const SECRET_PARAM = /(key|token|secret|password|passwd|pwd|auth|signature|sig)$/i;

export function redactUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return url.replace(/([?&][^=&]*(?:key|token|secret|password)[^=&]*=)[^&]*/gi, "$1***");
  }
  if (u.username || u.password) {
    u.username = u.username ? "***" : "";
    u.password = u.password ? "***" : "";
  }
  for (const name of [...u.searchParams.keys()]) {
    if (SECRET_PARAM.test(name)) u.searchParams.set(name, "***");
  }
  return u.toString().replace(/%2A%2A%2A/g, "***");
}
