package report

import (
	"io"
	"strings"

	"surge/metrics/compare"
)

// CompareMarkdown writes r as GitHub-flavoured Markdown for a pull
// request: the runs, a warning when the workloads differ, the table of
// CompareText (significant deltas in bold, large but underpowered ones in
// italics), the gates with their
// verdicts, the method and the caveats as numbered notes.
func CompareMarkdown(w io.Writer, r *compare.Result) error {
	p := &printer{w: w}
	p.line("### surge compare")
	p.line("")
	p.line("| | run | target | requests ok | window |")
	p.line("|:--|:--|:--|--:|--:|")
	for _, side := range []struct {
		name string
		run  compare.Run
	}{{"base", r.Base}, {"candidate", r.Candidate}} {
		run := side.run
		status := ""
		if m := endMark(run.Ending); m != "" {
			status = " (" + strings.ToLower(m) + ")"
		}
		p.line("| %s | %s | %s | %s of %s%s | %s s |", side.name, mdCode(run.Name), mdCode(run.Target),
			count(run.OK), count(run.Requests), status, num(run.Window.Seconds()))
	}
	p.line("")
	if r.DifferentWorkload {
		p.line("> **Warning: different workloads** (base %s, candidate %s), compared anyway as asked: differences may come from the workloads, not the servers.",
			mdCode(shortHash(r.Base.WorkloadHash)), mdCode(shortHash(r.Candidate.WorkloadHash)))
	} else {
		p.line("Workload %s in both runs.", mdCode(shortHash(r.Base.WorkloadHash)))
	}
	p.line("")
	p.compareMarkdownTable(r)
	p.compareMarkdownGates(r)
	p.line("")
	p.line("<sub>%s</sub>", mdEscape(method(r)))
	for _, w := range r.Warnings {
		p.notes.ref(w)
	}
	if len(p.notes.texts) > 0 {
		p.line("")
	}
	for _, text := range p.notes.texts {
		p.line("- %s %s", p.notes.ref(text), mdEscape(text))
	}
	return p.err
}

// compareMarkdownTable writes the rows as a Markdown table.
func (p *printer) compareMarkdownTable(r *compare.Result) {
	p.line("| %s |", strings.Join(compareHead(r), " | "))
	p.line("|:--|:--|--:|--:|--:|:--|--:|--:|")
	for i := range r.Rows {
		c := compareCells(&r.Rows[i], &p.notes)
		switch r.Rows[i].Finding() {
		case compare.FindingSignificant:
			c.delta = "**" + c.delta + "**"
		case compare.FindingUnderpowered:
			c.delta = "_" + c.delta + "_"
		}
		p.line("| %s |", strings.Join([]string{mdEscape(c.name), c.unit, c.base, c.cand, c.delta, c.ci, c.p, c.n}, " | "))
	}
}

// compareMarkdownGates writes the gates' verdicts as a Markdown table.
func (p *printer) compareMarkdownGates(r *compare.Result) {
	if len(r.Gates) == 0 {
		return
	}
	p.line("")
	p.line("**Gates: %s**", gateSummary(r))
	p.line("")
	p.line("| gate | delta | verdict | why |")
	p.line("|:--|--:|:--|:--|")
	for _, g := range r.Gates {
		verdict := "✅ pass"
		switch {
		case r.Fails(g):
			verdict = "❌ " + string(g.Verdict)
		case g.Verdict == compare.VerdictUnjudged:
			verdict = "⚠️ " + string(g.Verdict)
		}
		p.line("| %s | %s | %s | %s |", mdCode(g.Gate.String()), gateDelta(r, g), verdict, mdEscape(g.Reason))
	}
}

// mdCode is s as inline code, with pipes escaped for a table cell; "–"
// for an empty s.
func mdCode(s string) string {
	if s == "" {
		return "–"
	}
	return "`" + strings.ReplaceAll(strings.ReplaceAll(s, "`", "'"), "|", `\|`) + "`"
}

// mdEscape escapes the characters that would break a Markdown table cell
// or start markup.
func mdEscape(s string) string {
	r := strings.NewReplacer("|", `\|`, "*", `\*`, "_", `\_`, "<", "&lt;", ">", "&gt;", "`", "'")
	return r.Replace(s)
}
