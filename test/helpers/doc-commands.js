// The commands the docs show, for the docs test: every `mysql-driver-bench …`, `node
// bin/mysql-driver-bench.js …` and `npm run benchmark -- …` in a Markdown file's ```sh blocks, as
// the argv the program would get. A block preceded by `<!-- docs-test: runnable -->` is run too. The
// dated history (docs/history/) quotes its commands inline, in `code spans`: those are found too.

const RUNNABLE = '<!-- docs-test: runnable -->';
const OPERATORS = new Set(['|', '||', '&&', ';', '>', '>>', '<', '2>', '2>&1', '&']);

/** ```sh blocks of a Markdown text: [{ line (1-based, of the first command line), lines: [{ n, text }], runnable }]. */
export function shellBlocks(markdown) {
  const lines = markdown.split('\n');
  const blocks = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trim() !== '```sh') continue;
    const runnable = lines.slice(Math.max(0, i - 2), i).some((l) => l.trim() === RUNNABLE);
    const body = [];
    for (i++; i < lines.length && lines[i].trim() !== '```'; i++) body.push({ n: i + 1, text: lines[i] });
    blocks.push({ line: body[0]?.n ?? i, lines: body, runnable });
  }
  return blocks;
}

/** Shell words of one command line: quotes kept together, `<placeholder words>` one word, a comment dropped. */
export function shellWords(text) {
  const words = [];
  let word = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '#' && word === null) break;
    if (/\s/.test(c)) { if (word !== null) words.push(word); word = null; continue; }
    if (c === "'" || c === '"') {
      const end = text.indexOf(c, i + 1);
      word = (word ?? '') + text.slice(i + 1, end < 0 ? text.length : end);
      i = end < 0 ? text.length : end;
      continue;
    }
    if (c === '<' && text.indexOf('>', i) > i + 1 && /^<[\w .:-]+>/.test(text.slice(i))) {
      const end = text.indexOf('>', i);
      word = (word ?? '') + text.slice(i, end + 1);
      i = end;
      continue;
    }
    word = (word ?? '') + c;
  }
  if (word !== null) words.push(word);
  return words;
}

/** The program's argv in one command line, or null when the line does not run the program. */
export function programArgv(words) {
  let start = -1;
  for (let i = 0; i < words.length && start < 0; i++) {
    if (words[i] === 'mysql-driver-bench' || words[i].endsWith('bin/mysql-driver-bench.js')) start = i + 1;
    else if (words[i] === 'npm' && words[i + 1] === 'run' && words[i + 2] === 'benchmark') start = words[i + 3] === '--' ? i + 4 : i + 3;
  }
  if (start < 0) return null;
  const end = words.findIndex((w, i) => i >= start && OPERATORS.has(w));
  return words.slice(start, end < 0 ? words.length : end);
}

/** Every command of a Markdown text: [{ line, text, argv, runnable }], continuation lines joined. */
export function documentedCommands(markdown) {
  const commands = [];
  for (const block of shellBlocks(markdown)) {
    let pending = null;
    for (const { n, text } of block.lines) {
      const joined = pending ? { n: pending.n, text: `${pending.text} ${text.trim()}` } : { n, text };
      if (/\\\s*$/.test(text)) { pending = { n: joined.n, text: joined.text.replace(/\\\s*$/, '') }; continue; }
      pending = null;
      const argv = programArgv(shellWords(joined.text));
      if (argv) commands.push({ line: joined.n, text: joined.text.trim(), argv, runnable: block.runnable });
    }
  }
  return commands;
}

/** Every command quoted in a `code span` outside code blocks: [{ line, text, argv, runnable: false }]. */
export function inlineCommands(markdown) {
  const text = markdown.replace(/```[\s\S]*?```/g, (block) => block.replace(/[^\n]/g, ' '));
  const commands = [];
  for (const m of text.matchAll(/`([^`]+)`/g)) {
    const argv = programArgv(shellWords(m[1].replace(/\s+/g, ' ')));
    if (argv?.length) commands.push({ line: text.slice(0, m.index).split('\n').length, text: m[1].replace(/\s+/g, ' ').trim(), argv, runnable: false });
  }
  return commands;
}
