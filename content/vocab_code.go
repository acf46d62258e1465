package content

// entity is a record type that code templates name their identifiers
// after: a function over "orders" reads an order's "total" or "region".
type entity struct {
	one, many string    // "order", "orders"
	nums      [2]string // numeric fields, lower case, valid identifiers in every language
	cats      [2]string // text fields
}

// entities is the vocabulary of code snippets. No field is a keyword of
// Python, Go, JavaScript or SQL.
func entities() []entity {
	return []entity{
		{"order", "orders", [2]string{"total", "quantity"}, [2]string{"status", "region"}},
		{"invoice", "invoices", [2]string{"amount", "tax"}, [2]string{"currency", "customer"}},
		{"sensor", "sensors", [2]string{"reading", "battery"}, [2]string{"location", "kind"}},
		{"student", "students", [2]string{"grade", "age"}, [2]string{"course", "school"}},
		{"flight", "flights", [2]string{"delay", "distance"}, [2]string{"origin", "airline"}},
		{"book", "books", [2]string{"price", "pages"}, [2]string{"author", "genre"}},
		{"employee", "employees", [2]string{"salary", "tenure"}, [2]string{"department", "title"}},
		{"parcel", "parcels", [2]string{"weight", "cost"}, [2]string{"destination", "carrier"}},
		{"song", "songs", [2]string{"duration", "plays"}, [2]string{"artist", "album"}},
		{"ticket", "tickets", [2]string{"priority", "votes"}, [2]string{"assignee", "component"}},
		{"trip", "trips", [2]string{"fare", "distance"}, [2]string{"city", "driver"}},
		{"product", "products", [2]string{"price", "stock"}, [2]string{"category", "brand"}},
		{"review", "reviews", [2]string{"rating", "likes"}, [2]string{"product", "language"}},
		{"account", "accounts", [2]string{"balance", "credit"}, [2]string{"owner", "branch"}},
	}
}

// lang is a programming language of code snippets.
type lang struct {
	name  string // as a head names it: "Python"
	fence string // the info string after ```
}

// langs are the languages of code prompts, in the order of codeTemplates.
func langs() []lang {
	return []lang{{"Python", "python"}, {"Go", "go"}, {"JavaScript", "javascript"}, {"SQL", "sql"}}
}

// codeTopic is the vocabulary of the prose around code snippets.
func codeTopic() topic {
	return topic{
		name:    "our codebase",
		agents:  []string{"our team", "the previous maintainer", "a new contributor", "the platform group", "two junior developers", "the on-call engineer", "the data team"},
		things:  []string{"this module", "the billing service", "the nightly import job", "the reporting dashboard", "the test suite", "the deployment script", "the caching layer", "the search endpoint"},
		places:  []string{"production", "the staging cluster", "our main repository", "the data pipeline", "the mobile backend", "the admin tool"},
		verbs:   [][2]string{{"wrote", "write"}, {"refactored", "refactor"}, {"deployed", "deploy"}, {"rewrote", "rewrite"}},
		metrics: []string{"the error rate", "the average response time", "memory usage", "the build time", "test coverage", "the number of support tickets"},
	}
}

// codeStatementTemplates are the sentences around code snippets, with the
// slots of statementTemplates.
func codeStatementTemplates() []string {
	return []string{
		"{Agent} {act} {thing} in {year}.",
		"This code runs in {place} every night.",
		"{Agent} {act} it {when}.",
		"{Thing} calls this code about {num} times per hour.",
		"We noticed that it gets slow when the input has more than {num} items.",
		"{Metric} {change} by {pct} percent after the last release.",
		"The tests pass, but {metric} {change} {when}.",
		"{Agent} {view} the design during code review.",
		"It was written quickly and never cleaned up.",
		"We plan to move it into {thing} next quarter.",
		"Most of the input comes from {place}.",
		"The function is called from {thing} and from {place}.",
		"{Agent} {view} the change, but it was merged anyway.",
		"It has no type annotations yet.",
		"It must keep working with inputs of up to {num} rows.",
		"{Agent} asked me to look at it before the next release.",
		"We first saw the problem in {place} {when}.",
	}
}

// codeHeadTemplates open a code prompt; {lang} is the language's name.
func codeHeadTemplates() []string {
	return []string{
		"Explain what the following {lang} code does.",
		"Review this {lang} code and suggest improvements.",
		"Find any bugs in the {lang} code below.",
		"Write unit tests for the following {lang} code.",
		"Refactor the {lang} code below to make it easier to read.",
		"I inherited the {lang} code below and need help with it.",
	}
}

// codeCloseTemplates end a code prompt.
func codeCloseTemplates() []string {
	return []string{
		"Can you explain what this code does step by step?",
		"What is the time complexity of this code?",
		"How would you write unit tests for it?",
		"Are there any bugs or edge cases I missed?",
		"Can you make it more idiomatic?",
		"How should errors be handled here?",
		"Could you add comments that explain the tricky parts?",
		"Is there a simpler way to write this?",
		"How would this behave with very large inputs?",
		"What would you change before this goes to {place}?",
	}
}
