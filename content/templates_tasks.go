package content

import "strconv"

// The frames of the task styles: first lines (heads, start form), last
// sentences (closes, body form) and whole short prompts, with the slots of
// templates.go. Their passages are the topic statements, except that math
// prompts state problems (mathStatementTemplates), adversarial prompts mix
// in long nested sentences (adversarialStatementTemplates), and tool-use
// prompts list tool definitions (toolBlocks) before the request.

// taskHeadTemplates returns the heads of a task style.
func taskHeadTemplates(style Style) []string {
	switch style {
	case StyleCreative:
		return []string{
			"Write a short story set in {place} in which {agent} has to deal with {thing}.",
			"Write a poem about {name} inspired by the notes below.",
			"Using the details below, write the opening scene of a novel about {thing}.",
			"Write a dialogue between {agent} and {audience} about {thing}.",
			"Write a fable for children about {name}, drawing on the notes below.",
			"Write a diary entry by someone in {place} who lived through the events below.",
		}
	case StyleAnalysis:
		return []string{
			"Compare the two positions on {thing} described below.",
			"Analyse the causes of the change in {metric} using the notes below.",
			"Weigh the strengths and weaknesses of {thing} based on the text below.",
			"Assess how {agent} handled {thing}, using the evidence below.",
			"Contrast what happened in {place} with the wider trend described below.",
			"Evaluate the arguments made about {name} in the passage below.",
		}
	case StyleExtraction:
		return []string{
			"Extract every figure and date from the document below.",
			"Classify each sentence below as a fact, an opinion or a forecast.",
			"List the organisations and places mentioned in the document below.",
			"Label the overall sentiment of the report below as positive, negative or mixed.",
			"From the document below, extract the actor, date and amount of every decision about {thing}.",
			"Tag each paragraph below with one of these topics: budget, people, schedule, results.",
		}
	case StyleMath:
		return []string{
			"Solve the following problem step by step.",
			"Work through the problem below and show every step of your reasoning.",
			"Check the calculation described below and correct any mistakes.",
			"Answer the word problem below, explaining each step before the final answer.",
			"Think carefully and reason step by step about the figures below.",
		}
	case StyleLongQA:
		return []string{
			"Below is a long report on {name}; read all of it before answering the question at the end.",
			"The following document is long, and the answer to my question is somewhere in it.",
			"Answer the question at the end using only the report on {name} below.",
			"Here is the full text of a report on {thing}, followed by my question.",
		}
	case StyleRAG:
		return []string{
			"Answer the question at the end using only the retrieved documents below.",
			"Use the search results below to answer my question about {name}, and cite the documents you rely on.",
			"Several documents about {name} follow; base your answer on them and say which ones support it.",
			"Here are the passages the search returned for a question about {thing}.",
		}
	case StyleChat:
		return []string{
			"Thanks, that helps, but I still have a question about {name}.",
			"Following up on your last answer about {thing}, here is more context.",
			"Earlier you said that {metric} {change}, so I looked into it further.",
			"You missed part of what I asked about {thing}, so here are my notes again.",
			"Okay, going back to {name} for a moment.",
		}
	case StyleAdversarial:
		return []string{
			"Ignore the first instruction below unless it conflicts with the last one, in which case follow whichever is shorter.",
			"Answer the question at the end, but only if the passage below does not already answer it, and otherwise explain why it cannot be answered.",
			"Summarize the text below without leaving anything out, in no more than one sentence.",
			"Some of the statements below about {thing} contradict each other; decide which of them are true.",
			"The passage below may or may not be about {name}; answer as if it were, unless it is not.",
			"Rewrite the text below so that it says the opposite of what it says while keeping its meaning.",
		}
	case StyleCopy:
		return []string{
			"Repeat the passage below word for word, then continue it in the same style.",
			"Copy the notes on {name} below exactly as they are written, and then add a paragraph of your own.",
			"Quote the text below verbatim before you answer anything about it.",
			"Reproduce the following document about {thing} without changing a word, then carry on from where it stops.",
			"Type out the passage below exactly, keeping every sentence in order.",
		}
	case StyleTools:
		return []string{
			"You can call the tools described below; use them to help with my request at the end.",
			"The following functions are available, and you should reply with the calls needed, as JSON.",
			"Here are the tools you may use; decide which ones my request needs and in what order.",
		}
	}
	return nil
}

// taskCloseTemplates returns the closes of a task style.
func taskCloseTemplates(style Style) []string {
	switch style {
	case StyleCreative:
		return []string{
			"Keep it under {words} words.", "Give the story a hopeful ending.", "Write it in the first person.",
			"Use vivid but simple language.", "End with a twist that involves {thing}.", "Give it a title.",
		}
	case StyleAnalysis:
		return []string{
			"Which position is better supported by the evidence, and why?", "Organise the answer as a table of pros and cons.",
			"Rank the factors from most to least important.", "Point out any claims the text does not support.",
			"Finish with a recommendation for {agent}.", "How would the picture change if {metric} fell by {pct} percent?",
		}
	case StyleExtraction:
		return []string{
			"Return the result as JSON with the keys entity, type and value.", "Answer with one label per line and nothing else.",
			"Return a table with one row per item.", "If a field is missing, write null.",
			"Do not include anything that is not in the document.", "Give the label and a one-line reason.",
		}
	case StyleMath:
		return []string{
			"What is the final answer?", "Show each step, then give the final answer on its own line.",
			"How many are left at the end?", "Give the answer rounded to two decimal places.",
			"Explain where a common mistake would be made.", "What is the total cost?",
		}
	case StyleLongQA:
		return append(questionTemplates(), "Quote the sentence that supports your answer.", "If the report does not say, answer that it does not.")
	case StyleRAG:
		return append(questionTemplates(), "Cite the number of every document that supports your answer.", "If the documents disagree, say so.")
	case StyleChat:
		return []string{
			"Can you go into more detail on the second point?", "Could you say that again more briefly?", "What did you mean by that last part?",
			"And how does that affect {agent}?", "Can you give me an example from {place}?", "So what should I do next?",
		}
	case StyleAdversarial:
		return []string{
			"Was it {agent} or {agent} who did it, and when, if the text says both?", "Answer yes and no, and explain which applies when.",
			"Do not answer this question unless you have already answered it.", "If the previous sentence is false, ignore this one; otherwise answer it in exactly {words} words.",
			"Which of the claims above, if any, is not a claim?", "List everything above that is ambiguous, except the ambiguous parts.",
		}
	case StyleCopy:
		return []string{
			"Repeat it exactly, then keep going.", "Do not change, skip or reorder anything.", "Copy every word, then continue in the same voice.",
			"Quote it in full before adding anything.", "Keep the original wording and punctuation.", "Then write one more paragraph like it.",
		}
	case StyleTools:
		return []string{
			"Book it for {months} people in {place} and send me the details.", "Find out whether {metric} {change} last month and tell me by how much.",
			"Please do this before {agent} arrives.", "Only call a tool when you need its answer.",
			"Look up the latest figures on {thing} and email a summary to my team.", "Schedule a meeting about {thing} for next Tuesday.",
		}
	}
	return nil
}

// taskShortTemplates returns the short prompts of a task style.
func taskShortTemplates(style Style) []string {
	switch style {
	case StyleCreative:
		return []string{"Write a poem about {name}.", "Tell me a story.", "Write a limerick.", "Describe {place} at dawn."}
	case StyleAnalysis:
		return []string{"Compare the two.", "Which is better?", "Analyse {thing}.", "Pros and cons of {thing}?"}
	case StyleExtraction:
		return []string{"Extract the dates.", "Classify this.", "Is this positive?", "List the names in this."}
	case StyleMath:
		return []string{"What is 17 times 23?", "Solve for x.", "Is 91 prime?", "What is 15% of 240?", "Show your work."}
	case StyleLongQA:
		return []string{"Where does it say that?", "What does the report conclude?", "Who wrote it?"}
	case StyleRAG:
		return []string{"Which document says so?", "Cite your source.", "What do the sources say about {name}?"}
	case StyleChat:
		return []string{"Tell me more.", "Go on.", "Why is that?", "Can you explain?", "And then?", "Thanks!"}
	case StyleAdversarial:
		return []string{"Do not answer.", "Is the answer no?", "Yes or no, and why both?", "Ignore this."}
	case StyleCopy:
		return []string{"Repeat this.", "Copy it exactly.", "Say it again.", "Quote this verbatim.", "Echo the text."}
	case StyleTools:
		return []string{"What is the weather in {place}?", "Book a table.", "Send the email.", "Convert 40 dollars to euros."}
	}
	return nil
}

// mathStatementTemplates are the sentences of math word problems.
func mathStatementTemplates() []string {
	return []string{
		"{Agent} ordered {months} crates of supplies for {thing}, and each crate cost {pct} dollars.",
		"A survey in {place} asked {num} people about {thing}, and {pct} percent of them said yes.",
		"Each month, {metric} grows by {pct} percent of its value the month before.",
		"{Agent} split a budget of {num} dollars equally among {months} teams.",
		"The first stage of {thing} took {months} days, and the second took twice as long.",
		"A bus leaves {place} every {months} minutes, and the trip takes {words} seconds longer at night.",
		"If {agent} can finish {months} tasks a week, how many weeks will {num} tasks take?",
		"The cost of {thing} was {num} dollars in {year} and rose by {pct} percent by {later}.",
		"{Agent} spent a third of the remaining money on {thing}.",
		"Two groups shared the work on {thing} in the ratio {months} to {pct}.",
		"After a discount of {pct} percent, the price was {num} dollars.",
		"The average of the first {months} results was {pct}, and the next result was {words}.",
	}
}

// adversarialStatementTemplates are long sentences of nested clauses,
// mixed into the passages of adversarial prompts.
func adversarialStatementTemplates() []string {
	return []string{
		"{Agent}, who {act} {thing} in {place} after {agent} had {act} it {when}, said that {metric}, which {change} by {pct} percent, was not the point, although {source} disagreed.",
		"It is not true that {agent} did not {do} {thing}, unless the report that {source} published, which nobody has read, says otherwise.",
		"Either {agent} {act} {thing} in {year} or in {later}, or both, depending on whether the second phase, which {agent} {view}, counts.",
		"The claim that {metric} {change} is false, and the claim that it is false is also false, according to {source}.",
		"When {agent} said that {agent} had said that {thing} would fail, it was unclear who meant what, or when.",
		"Although {metric} in {place} {change} by {pct} percent, which some call a rise and others a fall, {agent} {view} {thing} as if nothing had changed.",
	}
}

// translationHeadTemplates are the heads of translation prompts, with the
// slots {src} and {dst} for the languages' English names.
func translationHeadTemplates() []string {
	return []string{
		"Translate the following {src} text into {dst}.",
		"Please translate this {src} passage into {dst}, keeping the figures unchanged.",
		"Render the {src} text below in natural {dst}.",
	}
}

// translationCloseTemplates end translation prompts.
func translationCloseTemplates() []string {
	return []string{
		"Keep the names of people and places as they are.", "Do not add explanations.",
		"Keep the paragraph breaks.", "Use a formal register.",
	}
}

// ragLabel returns the label that opens document k of a RAG prompt.
func ragLabel(k int) string { return "Document " + strconv.Itoa(k) + ":" }

// maxRAGLabel is the number of distinct document labels; longer prompts
// start counting again.
const maxRAGLabel = 512

// toolBlocks are the tool definitions of tool-use prompts, as JSON objects.
func toolBlocks() []string {
	return []string{
		`{"name": "get_weather", "description": "Return the forecast for a city and a date.", "parameters": {"type": "object", "properties": {"city": {"type": "string"}, "date": {"type": "string", "format": "date"}}, "required": ["city"]}}`,
		`{"name": "search_flights", "description": "Search flights between two airports.", "parameters": {"type": "object", "properties": {"from": {"type": "string"}, "to": {"type": "string"}, "date": {"type": "string"}, "passengers": {"type": "integer", "minimum": 1}}, "required": ["from", "to", "date"]}}`,
		`{"name": "book_table", "description": "Reserve a table at a restaurant.", "parameters": {"type": "object", "properties": {"restaurant": {"type": "string"}, "time": {"type": "string"}, "party_size": {"type": "integer"}}, "required": ["restaurant", "time", "party_size"]}}`,
		`{"name": "convert_currency", "description": "Convert an amount from one currency to another at today's rate.", "parameters": {"type": "object", "properties": {"amount": {"type": "number"}, "from": {"type": "string"}, "to": {"type": "string"}}, "required": ["amount", "from", "to"]}}`,
		`{"name": "lookup_order", "description": "Return the status of a customer order.", "parameters": {"type": "object", "properties": {"order_id": {"type": "string"}}, "required": ["order_id"]}}`,
		`{"name": "send_email", "description": "Send an email on the user's behalf.", "parameters": {"type": "object", "properties": {"to": {"type": "array", "items": {"type": "string"}}, "subject": {"type": "string"}, "body": {"type": "string"}}, "required": ["to", "subject", "body"]}}`,
		`{"name": "create_event", "description": "Add an event to the user's calendar.", "parameters": {"type": "object", "properties": {"title": {"type": "string"}, "start": {"type": "string"}, "minutes": {"type": "integer"}, "attendees": {"type": "array", "items": {"type": "string"}}}, "required": ["title", "start"]}}`,
		`{"name": "query_metrics", "description": "Return a time series of a named metric.", "parameters": {"type": "object", "properties": {"metric": {"type": "string"}, "region": {"type": "string"}, "months": {"type": "integer", "maximum": 60}}, "required": ["metric"]}}`,
		`{"name": "web_search", "description": "Search the web and return the top results.", "parameters": {"type": "object", "properties": {"query": {"type": "string"}, "limit": {"type": "integer", "default": 5}}, "required": ["query"]}}`,
		`{"name": "read_file", "description": "Return the contents of a file in the user's workspace.", "parameters": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}}`,
		`{"name": "run_sql", "description": "Run a read-only SQL query against the reporting database.", "parameters": {"type": "object", "properties": {"query": {"type": "string"}, "timeout_s": {"type": "integer"}}, "required": ["query"]}}`,
		`{"name": "translate_text", "description": "Translate text into a target language.", "parameters": {"type": "object", "properties": {"text": {"type": "string"}, "target": {"type": "string", "enum": ["en", "es", "fr", "de", "zh", "ja", "ar", "hi", "ru"]}}, "required": ["text", "target"]}}`,
	}
}

// toolNoteTemplates are the sentences of a tool-use request.
func toolNoteTemplates() []string {
	return []string{
		"I am travelling to {place} on business {when}.",
		"My budget for {thing} is about {num} dollars.",
		"The meeting with {agent} is about {thing}.",
		"I need the figures on {metric} for the last {months} months.",
		"Please check my calendar first.",
		"{Agent} asked me for an update on {thing}.",
		"The report on {name} is in the shared folder.",
		"We will be {months} people in total.",
	}
}
