/**
 * The journal's simple markup → a small syntax tree. Supported: `## `/`### `/`#### ` headings,
 * paragraphs, `- ` / `* ` bullet lists, `1. ` numbered lists, pipe tables, `**bold**` and
 * `[text](href)` links. Everything else is plain text: the renderer never injects HTML, so a
 * `<script>` in an article shows up as the characters `<script>`.
 */
import { classifyHref, type LinkKind } from './safe-href';

export type Inline =
  | { type: 'text'; value: string }
  | { type: 'strong'; children: Inline[] }
  | { type: 'link'; href: string; kind: LinkKind; children: Inline[] };

export type Block =
  | { type: 'heading'; level: 2 | 3 | 4; children: Inline[] }
  | { type: 'paragraph'; children: Inline[] }
  | { type: 'list'; ordered: boolean; start: number; items: Inline[][] }
  | { type: 'table'; header: Inline[][]; rows: Inline[][][] };

const HEADING = /^(#{1,4})\s+(.*)$/;
const BULLET = /^[-*]\s+(.*)$/;
const NUMBERED = /^(\d{1,9})[.)]\s+(.*)$/;
const TABLE_ROW = /^\|.*\|$/;
const TABLE_SEPARATOR = /^\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?$/;

export function parseMarkup(source: string): Block[] {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let i = 0;

  while (i < lines.length) {
    const raw = lines[i]!;
    const line = raw.trim();
    if (line === '') {
      i++;
      continue;
    }

    const heading = HEADING.exec(line);
    if (heading) {
      // `#` is promoted to level 2: the article title is the page's only h1.
      const level = Math.min(4, Math.max(2, heading[1]!.length)) as 2 | 3 | 4;
      blocks.push({ type: 'heading', level, children: parseInline(heading[2]!.trim()) });
      i++;
      continue;
    }

    if (TABLE_ROW.test(line) && i + 1 < lines.length && TABLE_SEPARATOR.test(lines[i + 1]!.trim())) {
      const header = splitRow(line);
      const rows: Inline[][][] = [];
      i += 2;
      while (i < lines.length && TABLE_ROW.test(lines[i]!.trim())) {
        const cells = splitRow(lines[i]!.trim());
        // Pad or cut each row to the header's width so the table stays rectangular.
        rows.push(header.map((_, column) => cells[column] ?? []));
        i++;
      }
      blocks.push({ type: 'table', header, rows });
      continue;
    }

    const bullet = BULLET.exec(line);
    const numbered = NUMBERED.exec(line);
    if (bullet || numbered) {
      const ordered = !bullet;
      const pattern = ordered ? NUMBERED : BULLET;
      const start = numbered ? Number(numbered[1]) : 1;
      const texts: string[] = [];
      while (i < lines.length) {
        const current = lines[i]!;
        const match = pattern.exec(current.trim());
        if (match) {
          texts.push((ordered ? match[2] : match[1])!.trim());
        } else if (texts.length > 0 && /^\s+\S/.test(current)) {
          // An indented line continues the previous item.
          texts[texts.length - 1] += ` ${current.trim()}`;
        } else break;
        i++;
      }
      blocks.push({ type: 'list', ordered, start, items: texts.map(parseInline) });
      continue;
    }

    // Paragraph: consecutive lines up to a blank line or the start of another block.
    const text: string[] = [line];
    i++;
    while (i < lines.length) {
      const next = lines[i]!.trim();
      if (next === '' || HEADING.test(next) || BULLET.test(next) || NUMBERED.test(next) || TABLE_ROW.test(next)) break;
      text.push(next);
      i++;
    }
    blocks.push({ type: 'paragraph', children: parseInline(text.join(' ')) });
  }
  return blocks;
}

function splitRow(line: string): Inline[][] {
  const inner = line.replace(/^\|/, '').replace(/\|$/, '');
  const cells: string[] = [];
  let current = '';
  for (let k = 0; k < inner.length; k++) {
    const ch = inner[k]!;
    if (ch === '\\' && inner[k + 1] === '|') {
      current += '|';
      k++;
    } else if (ch === '|') {
      cells.push(current);
      current = '';
    } else current += ch;
  }
  cells.push(current);
  return cells.map((cell) => parseInline(cell.trim()));
}

/** Inline text: `**bold**` and `[text](href)`; an unmatched marker stays literal text. */
export function parseInline(text: string): Inline[] {
  const out: Inline[] = [];
  let buffer = '';
  const flush = () => {
    if (buffer) out.push({ type: 'text', value: buffer });
    buffer = '';
  };

  let i = 0;
  while (i < text.length) {
    if (text.startsWith('**', i)) {
      const close = text.indexOf('**', i + 2);
      if (close > i + 2) {
        flush();
        out.push({ type: 'strong', children: parseInline(text.slice(i + 2, close)) });
        i = close + 2;
        continue;
      }
    }
    if (text[i] === '[') {
      const link = matchLink(text, i);
      if (link) {
        flush();
        const children = parseInline(link.label);
        const kind = classifyHref(link.href);
        // A link whose target is not allowed keeps only its visible text.
        if (kind === null) out.push(...children);
        else out.push({ type: 'link', href: link.href.trim(), kind, children });
        i = link.end;
        continue;
      }
    }
    buffer += text[i];
    i++;
  }
  flush();
  return mergeText(out);
}

function matchLink(text: string, open: number): { label: string; href: string; end: number } | null {
  // Label: up to the matching `]` (nested brackets allowed), then `(` immediately.
  let depth = 0;
  let k = open;
  for (; k < text.length; k++) {
    if (text[k] === '[') depth++;
    else if (text[k] === ']' && --depth === 0) break;
  }
  if (k >= text.length || text[k + 1] !== '(') return null;
  const label = text.slice(open + 1, k);
  // Target: up to the matching `)` so that URLs with balanced parentheses survive.
  let parens = 0;
  let m = k + 1;
  for (; m < text.length; m++) {
    if (text[m] === '(') parens++;
    else if (text[m] === ')' && --parens === 0) break;
  }
  if (m >= text.length || label.trim() === '') return null;
  return { label, href: text.slice(k + 2, m), end: m + 1 };
}

function mergeText(nodes: Inline[]): Inline[] {
  const merged: Inline[] = [];
  for (const node of nodes) {
    const last = merged[merged.length - 1];
    if (node.type === 'text' && last?.type === 'text') last.value += node.value;
    else merged.push(node);
  }
  return merged;
}

/** Plain text of inline nodes (used for heading ids). */
export function inlineText(nodes: Inline[]): string {
  return nodes.map((node) => (node.type === 'text' ? node.value : inlineText(node.children))).join('');
}
