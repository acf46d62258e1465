package content

import (
	"math/rand/v2"
	"strconv"
	"strings"
)

// Code templates name their slots between § signs, a mark none of the four
// languages uses:
//
//	§one§ §many§ §One§ §Many§   the entity, singular and plural, lower or capitalised
//	§num§ §Num§ §cat§ §Cat§     a numeric and a text field of the entity
//	§n§ §year§ §verb§           a small number, a year, a verb for filters
//	§padID§ §padCat§ §padNum§   spaces that align ID, §Cat§ and §Num§ as gofmt does
//
// Every expansion is a complete snippet that compiles or parses on its own
// (the Python ones were checked with ast.parse).

// codeTemplates returns the snippet templates of each language, in the
// order of langs().
func codeTemplates() [][]string {
	return [][]string{pythonTemplates(), goTemplates(), jsTemplates(), sqlTemplates()}
}

func pythonTemplates() []string {
	return []string{
		"def §verb§_§many§(§many§, min_§num§):\n    \"\"\"Return the §many§ whose §num§ is at least min_§num§.\"\"\"\n    selected = []\n    for §one§ in §many§:\n        if §one§.§num§ >= min_§num§:\n            selected.append(§one§)\n    return selected",
		"def count_§many§_by_§cat§(§many§):\n    counts = {}\n    for §one§ in §many§:\n        key = §one§.§cat§\n        counts[key] = counts.get(key, 0) + 1\n    return counts",
		"def average_§num§(§many§):\n    if not §many§:\n        return 0.0\n    total = sum(item.§num§ for item in §many§)\n    return total / len(§many§)",
		"class §One§Cache:\n    def __init__(self, capacity=§n§):\n        self.capacity = capacity\n        self.items = {}\n\n    def get(self, key):\n        return self.items.get(key)\n\n    def put(self, key, value):\n        if len(self.items) >= self.capacity:\n            oldest = next(iter(self.items))\n            del self.items[oldest]\n        self.items[key] = value",
		"def parse_§one§(line):\n    parts = [p.strip() for p in line.split(\",\")]\n    if len(parts) != 3:\n        raise ValueError(f\"expected 3 fields, got {len(parts)}\")\n    name, §cat§, §num§ = parts\n    return {\"name\": name, \"§cat§\": §cat§, \"§num§\": float(§num§)}",
		"import time\n\n\ndef fetch_§many§(client, attempts=§n§):\n    for attempt in range(attempts):\n        try:\n            return client.get(\"/api/§many§\")\n        except ConnectionError:\n            time.sleep(2 ** attempt)\n    raise RuntimeError(\"could not fetch §many§\")",
		"def top_§many§_by_§num§(§many§, k=§n§):\n    ranked = sorted(§many§, key=lambda item: item.§num§, reverse=True)\n    return ranked[:k]",
		"from dataclasses import dataclass\n\n\n@dataclass\nclass §One§:\n    id: int\n    §cat§: str\n    §num§: float = 0.0\n\n    def is_valid(self):\n        return self.id > 0 and self.§num§ >= 0",
		"import csv\n\n\ndef load_§many§(path):\n    with open(path, newline=\"\") as handle:\n        reader = csv.DictReader(handle)\n        return [row for row in reader if row[\"§cat§\"]]",
	}
}

func goTemplates() []string {
	return []string{
		"func Total§Num§(§many§ []§One§) float64 {\n\tvar sum float64\n\tfor _, x := range §many§ {\n\t\tsum += x.§Num§\n\t}\n\treturn sum\n}",
		"func Group§Many§By§Cat§(§many§ []§One§) map[string][]§One§ {\n\tgroups := make(map[string][]§One§)\n\tfor _, x := range §many§ {\n\t\tgroups[x.§Cat§] = append(groups[x.§Cat§], x)\n\t}\n\treturn groups\n}",
		"type §One§ struct {\n\tID§padID§ int\n\t§Cat§§padCat§ string\n\t§Num§§padNum§ float64\n}\n\nfunc (x §One§) Valid() bool {\n\treturn x.ID > 0 && x.§Num§ >= 0\n}",
		"func Load§Many§(path string) ([]§One§, error) {\n\tdata, err := os.ReadFile(path)\n\tif err != nil {\n\t\treturn nil, fmt.Errorf(\"reading §many§: %w\", err)\n\t}\n\tvar out []§One§\n\tif err := json.Unmarshal(data, &out); err != nil {\n\t\treturn nil, fmt.Errorf(\"decoding §many§: %w\", err)\n\t}\n\treturn out, nil\n}",
		"func Max§Num§(§many§ []§One§) (§One§, bool) {\n\tif len(§many§) == 0 {\n\t\treturn §One§{}, false\n\t}\n\tbest := §many§[0]\n\tfor _, x := range §many§[1:] {\n\t\tif x.§Num§ > best.§Num§ {\n\t\t\tbest = x\n\t\t}\n\t}\n\treturn best, true\n}",
	}
}

func jsTemplates() []string {
	return []string{
		"function group§Many§By§Cat§(§many§) {\n  const groups = {};\n  for (const item of §many§) {\n    const key = item.§cat§;\n    if (!groups[key]) groups[key] = [];\n    groups[key].push(item);\n  }\n  return groups;\n}",
		"async function load§Many§(baseUrl) {\n  const res = await fetch(`${baseUrl}/api/§many§`);\n  if (!res.ok) {\n    throw new Error(`request failed: ${res.status}`);\n  }\n  return res.json();\n}",
		"const total§Num§ = (§many§) =>\n  §many§\n    .filter((item) => item.§num§ > 0)\n    .reduce((sum, item) => sum + item.§num§, 0);",
		"function debounce(fn, waitMs = §n§) {\n  let timer = null;\n  return (...args) => {\n    clearTimeout(timer);\n    timer = setTimeout(() => fn(...args), waitMs);\n  };\n}",
		"class §One§Store {\n  constructor() {\n    this.items = new Map();\n  }\n\n  add(§one§) {\n    this.items.set(§one§.id, §one§);\n  }\n\n  by§Cat§(value) {\n    return [...this.items.values()].filter((x) => x.§cat§ === value);\n  }\n}",
	}
}

func sqlTemplates() []string {
	return []string{
		"SELECT §cat§, COUNT(*) AS §one§_count, AVG(§num§) AS avg_§num§\nFROM §many§\nWHERE created_at >= '§year§-01-01'\nGROUP BY §cat§\nORDER BY §one§_count DESC\nLIMIT §n§;",
		"CREATE TABLE §many§ (\n    id INTEGER PRIMARY KEY,\n    §cat§ TEXT NOT NULL,\n    §num§ NUMERIC(10, 2) DEFAULT 0,\n    created_at TIMESTAMP NOT NULL\n);",
		"SELECT o.id, o.§num§, c.name\nFROM §many§ AS o\nJOIN customers AS c ON c.id = o.customer_id\nWHERE o.§num§ > §n§\nORDER BY o.§num§ DESC;",
		"UPDATE §many§\nSET §cat§ = 'archived'\nWHERE created_at < '§year§-01-01'\n  AND §num§ = 0;",
		"SELECT id, §cat§, §num§,\n       RANK() OVER (PARTITION BY §cat§ ORDER BY §num§ DESC) AS §num§_rank\nFROM §many§\nWHERE §num§ IS NOT NULL;",
	}
}

// filterVerbs name Python filter functions.
func filterVerbs() []string { return []string{"filter", "select", "keep", "find"} }

// expandCode returns template tmpl of language l filled for a random
// entity, wrapped in a fenced block: "```python\n...\n```".
func expandCode(r *rand.Rand, l lang, tmpl string, es []entity) string {
	e := pick(r, es)
	num, cat := e.nums[r.IntN(2)], e.cats[r.IntN(2)]
	ns := []int{3, 5, 8, 10, 20, 50, 100, 128, 250, 500}
	width := max(len("ID"), len(cat), len(num))
	pad := func(name string) string { return strings.Repeat(" ", width-len(name)) }
	rep := strings.NewReplacer(
		"§one§", e.one, "§many§", e.many, "§One§", capitalize(e.one), "§Many§", capitalize(e.many),
		"§num§", num, "§Num§", capitalize(num), "§cat§", cat, "§Cat§", capitalize(cat),
		"§n§", strconv.Itoa(pick(r, ns)), "§year§", strconv.Itoa(2015+r.IntN(10)),
		"§verb§", pick(r, filterVerbs()),
		"§padID§", pad("ID"), "§padCat§", pad(cat), "§padNum§", pad(num),
	)
	return "```" + l.fence + "\n" + rep.Replace(tmpl) + "\n```"
}
