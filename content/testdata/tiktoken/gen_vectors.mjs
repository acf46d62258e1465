// gen_vectors.mjs writes the test vectors of the built-in tokenizers:
// o200k_vectors.jsonl and cl100k_vectors.jsonl beside this script, one
// {"text": ..., "ids": [...]} per line, with ids from OpenAI's own tiktoken
// (its Rust core compiled to WebAssembly, as the npm package tiktoken),
// encoded as ordinary text: "<|endoftext|>" in a text is not special.
//
// Install the reference outside the repository's sources, then run:
//
//   npm install --prefix .cache/npm tiktoken@1.0.22
//   node content/testdata/tiktoken/gen_vectors.mjs
//
// (../hf/gen_vectors.mjs, whose texts this reuses, needs no package for
// that.) The texts are deterministic: those of ../hf/gen_vectors.mjs, every
// short string over a small alphabet of white space, and seeded mixtures
// of white space, newlines, letters and punctuation, which is where split
// patterns with \s*[\r\n]+ and \s+(?!\S) are easiest to get wrong.

import { createRequire } from "node:module";
import { existsSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { moduleRoot, mulberry32, texts as hfTexts } from "../hf/gen_vectors.mjs";

const here = dirname(fileURLToPath(import.meta.url));

// newlineMixtures returns hand-picked texts where white space meets
// newlines: \s*[\r\n]+ must backtrack into \s* to end on the last newline,
// and \s+(?!\S) must leave the last space to the word after it.
function newlineMixtures() {
  return [
    "a\n \nb", "x  \n\n  y", "\t\n\t", "a \nb", "a  \nb", "a\t\nb", "a \t \n \t b",
    "line one   \nline two", "trailing   \n", "trailing \t\n\n", "a\n  \n  \nb", "a\n\t\n\tb",
    "a\r\n \r\nb", "a \r\n  \r\n b", "\n \n", " \n \n ", "  \n  ", "\n  \n  x", "x\n  \n",
    "} \n\n  }", "end.  \n\n", "end.\n  \n", "!\n \n!", "!!  \n  ??", "-\n\t-", "a/\n/b", "a/ \n /b",
    "x\n\n\n  \n\n\ny", "x \u00a0\ny", "x\u00a0\n\u00a0y", "x\u3000\n y", "x\u2028\n y", "x \u2029 \ny",
    "code:\n    if x:\n        y()\n    \n    z()\n", "a\n\n\t\t\n\n\tb", "  \n", "\n  ", " \n ",
    "Don't \n'll \n 've\n's", "DON'T\n\n 'LL", "1 \n 2\n\n3  \n", "x\r \r\ny", "x\r\r \n\ny",
  ];
}

// shortStrings returns every string of 1 to maxLen characters over alphabet.
function shortStrings(alphabet, maxLen) {
  const out = [];
  let level = [""];
  for (let n = 1; n <= maxLen; n++) {
    level = level.flatMap((s) => [...alphabet].map((c) => s + c));
    out.push(...level);
  }
  return out;
}

// spaceMixtures draws n strings mostly of white space, with a few letters,
// digits and punctuation between the runs.
function spaceMixtures(n, seed) {
  const rand = mulberry32(seed);
  const atoms = [" ", " ", " ", "\n", "\n", "\t", "\r\n", "\r", "\u00a0", "a", "Word", "'s", "42", ".", "!?", "/", "\u3000"];
  const out = [];
  for (let i = 0; i < n; i++) {
    const len = 2 + Math.floor(rand() * 24);
    let s = "";
    for (let k = 0; k < len; k++) s += atoms[Math.floor(rand() * atoms.length)];
    out.push(s);
  }
  return out;
}

function texts() {
  const list = [...hfTexts(), ...newlineMixtures(), ...shortStrings(" \n\r\ta", 4), ...spaceMixtures(150, 20250101)];
  return [...new Set(list)];
}

// write encodes every text with encoding and writes the vectors to file.
function write(getEncoding, encoding, file) {
  const enc = getEncoding(encoding);
  try {
    const list = texts();
    const lines = list.map((text) => JSON.stringify({ text, ids: Array.from(enc.encode_ordinary(text)) }));
    writeFileSync(join(here, file), lines.join("\n") + "\n");
    console.error(`${file}: ${list.length} vectors`);
  } finally {
    enc.free();
  }
}

const prefix = join(moduleRoot(here), ".cache/npm");
const entry = join(prefix, "node_modules/tiktoken/package.json");
if (!existsSync(entry)) {
  throw new Error(`${entry} missing; run: npm install --prefix ${prefix} tiktoken@1.0.22`);
}
const { get_encoding: getEncoding } = createRequire(entry)("tiktoken");
write(getEncoding, "o200k_base", "o200k_vectors.jsonl");
write(getEncoding, "cl100k_base", "cl100k_vectors.jsonl");
