// Secrets never reach a log line, an error message or the database: a URL is shown with every
// configured secret masked by value (src/secrets.ts), whatever its parameter is called, and then with
// credential-like parameters masked by name, a second net for a value this process was not told of.
import { MASK, redactSecrets } from "../secrets.js";

const SECRET_PARAM = /(key|token|secret|password|passwd|pass|pwd|user|username|auth|signature|sig|credentials?)$/i;
const SECRET_PARAM_TEXT = /([?&][^=&]*(?:key|token|secret|pass|pwd|user|auth|sig|credential)[^=&]*=)[^&#]*/gi;

export function redactUrl(url: string): string {
  const masked = redactSecrets(url);
  let u: URL;
  try {
    u = new URL(masked);
  } catch {
    return masked.replace(SECRET_PARAM_TEXT, `$1${MASK}`);
  }
  if (u.username || u.password) {
    u.username = u.username ? MASK : "";
    u.password = u.password ? MASK : "";
  }
  let renamed = false;
  for (const name of new Set(u.searchParams.keys())) {
    if (SECRET_PARAM.test(name)) {
      u.searchParams.set(name, MASK);
      renamed = true;
    }
  }
  // Untouched parameters keep their spelling; masked ones read *** rather than %2A%2A%2A.
  const text = renamed ? u.toString().replace(/%2A%2A%2A/g, MASK) : u.toString();
  return redactSecrets(text);
}
