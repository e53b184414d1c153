// Ultralytics metadata values are Python literals (str(dict), str(list)).

/** Parses `{0: 'person', 1: "men's"}` or `['a', 'b']` into names by index. */
export function parsePythonNames(text: string): string[] | undefined {
  let i = 0;
  const ws = (): void => {
    while (i < text.length && /\s/.test(text[i] ?? '')) i++;
  };
  const str = (): string | undefined => {
    const q = text[i];
    if (q !== "'" && q !== '"') return undefined;
    let out = '';
    for (i++; i < text.length; i++) {
      const ch = text[i] ?? '';
      if (ch === '\\') {
        const next = text[++i] ?? '';
        out += next === 'n' ? '\n' : next === 't' ? '\t' : next;
      } else if (ch === q) {
        i++;
        return out;
      } else out += ch;
    }
    return undefined;
  };
  ws();
  const open = text[i];
  if (open !== '{' && open !== '[') return undefined;
  const close = open === '{' ? '}' : ']';
  i++;
  const byIndex = new Map<number, string>();
  for (let n = 0; ; n++) {
    ws();
    if (text[i] === close) {
      i++;
      break;
    }
    let key = n;
    if (open === '{') {
      const m = /^-?\d+/.exec(text.slice(i));
      if (!m) return undefined;
      key = Number(m[0]);
      i += m[0].length;
      ws();
      if (text[i++] !== ':') return undefined;
      ws();
    }
    const value = str();
    if (value === undefined) return undefined;
    byIndex.set(key, value);
    ws();
    if (text[i] === ',') i++;
    else if (text[i] !== close) return undefined;
  }
  ws();
  if (i !== text.length) return undefined;
  const names: string[] = [];
  for (let k = 0; k < byIndex.size; k++) {
    const v = byIndex.get(k);
    // Names must be 0..n-1 without gaps: class ids index this list.
    if (v === undefined) return undefined;
    names.push(v);
  }
  return names;
}
