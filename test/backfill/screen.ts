// A terminal's screen, for tests of what a command leaves on it.

/** What a terminal shows after the bytes written to it: \r, \n, "erase line" and text. */
export function screen(bytes: string): string[] {
  const lines: string[] = [""];
  let col = 0;
  // eslint-disable-next-line no-control-regex -- a terminal's escape sequences are what is read here
  const tokens = bytes.match(/\x1b\[[0-9;?]*[A-Za-z]|\r\n|\r|\n|[^\x1b\r\n]+/g) ?? [];
  for (const t of tokens) {
    const row = lines.length - 1;
    if (t === "\r") col = 0;
    else if (t === "\n" || t === "\r\n") {
      lines.push("");
      col = 0;
    } else if (t === "\x1b[2K") lines[row] = "";
    else if (t.startsWith("\x1b["))
      continue; // cursor show/hide and colours: nothing on screen
    else {
      const line = lines[row]!.padEnd(col);
      lines[row] = line.slice(0, col) + t + line.slice(col + t.length);
      col += t.length;
    }
  }
  return lines.filter((l, i) => l !== "" || i < lines.length - 1);
}
