package report

import "html/template"

// pageTemplate lays out a page. It loads nothing: the style is inline and
// the charts are inline SVG; the Content-Security-Policy forbids every
// load, scripts included, should one slip in.
var pageTemplate = template.Must(template.New("page").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>` + pageCSS + `</style>
</head>
<body>
<header><h1>{{.Title}}</h1></header>
<main>
{{with .Sweep}}<section id="sweep">
<h2>Sweep</h2>
{{template "fields" .Fields}}
{{template "charts" .Charts}}
<h3 id="sweep-points">Points</h3>
{{template "grid" .Points}}
{{range .Sections}}<section id="{{.ID}}" class="point">
<h3>{{.Title}}</h3>
{{template "fields" .Figures}}
{{template "grid" .Latency}}
</section>
{{end}}</section>
{{end}}{{with .Run}}<section id="run">
<h2>Run</h2>
<p id="measurement" class="{{if .Valid}}valid{{else}}questionable{{end}}">{{.Measurement}}</p>
<h3 id="workload">Workload</h3>
{{template "fields" .Workload}}
<h3 id="key-figures">Key figures</h3>
{{template "fields" .Figures}}
<h3 id="latency">Latency</h3>
{{template "grid" .Latency}}
{{with .SLOs}}<h3 id="slos">SLOs</h3>
<p class="note">TTFT, TTFO and E2E SLOs are judged from the intended send time, so queueing behind the schedule counts against them.</p>
{{template "grid" .}}
{{end}}{{range .ChartGroups}}<h3 id="{{.ID}}">{{.Title}}</h3>
{{template "charts" .Charts}}
{{end}}{{with .Engine}}<h3 id="engine">Engine and client</h3>
<p>Latency the server measured itself (the histograms of its /metrics over the measurement window) beside the client's, measured from the send time: the gap is what the engine does not see — the network, the server's HTTP front end, the client's own overhead. The mean is exact; a quantile is interpolated within its bucket and only known to lie there, so one in the highest bucket with observations shows as that bucket's range, and a gap narrower than its bucket is not measurable.</p>
{{template "grid" .}}
{{end}}<h3 id="tokens">Token audit</h3>
{{template "grid" .Audit}}
{{with .Findings}}<ul class="findings">{{range .}}<li>{{.}}</li>{{end}}</ul>
{{end}}<h3 id="errors">Errors</h3>
<p>{{.Errors.Line}}</p>
{{with .Errors.ByClass}}{{template "grid" .}}{{end}}
{{with .Errors.Messages}}{{template "grid" .}}{{end}}
{{if or .Faults .Windows}}<h3 id="faults">Faults</h3>
<p>Faults injected on purpose. Every other figure leaves the requests that carried one out: it describes the healthy requests.</p>
{{with .Faults}}{{template "grid" .}}{{end}}
{{with .Windows}}<ul>{{range .}}<li>{{.}}</li>{{end}}</ul>{{end}}
{{end}}{{with .Slowest}}<h3 id="slowest">Slowest requests</h3>
<p>The measured requests with the longest E2E from their intended send time, failures first.</p>
{{template "grid" .}}
{{end}}{{with .Clients}}<h3 id="clients">Clients</h3>
{{template "grid" .}}
{{end}}{{with .Styles}}<h3 id="styles">By prompt style</h3>
{{template "grid" .}}
{{end}}{{with .Warnings}}<h3 id="caveats">Caveats</h3>
<ol class="caveats">{{range .}}<li>{{.}}</li>{{end}}</ol>
{{end}}</section>
{{end}}</main>
</body>
</html>
{{define "fields"}}<dl class="fields">{{range .}}<dt>{{.Name}}</dt><dd>{{.Value}}</dd>{{end}}</dl>{{end}}
{{define "grid"}}<div class="table"><table>
<thead><tr>{{range .HeadCells}}<th{{with .Class}} class="{{.}}"{{end}}>{{.Text}}</th>{{end}}</tr></thead>
<tbody>{{range .Rows}}
<tr>{{range .}}<td{{with .Classes}} class="{{.}}"{{end}}>{{if .Href}}<a href="{{.Href}}">{{.Text}}</a>{{else}}{{.Text}}{{end}}</td>{{end}}</tr>{{end}}
</tbody>
</table></div>{{end}}
{{define "charts"}}<div class="charts">{{range .}}
<figure id="fig-{{.ID}}">
<figcaption><strong>{{.Title}}.</strong> {{.Caption}}</figcaption>
{{if .SVG}}{{.SVG}}{{else}}<p class="note">{{.Note}}</p>{{end}}
</figure>{{end}}
</div>{{end}}
`))

// pageCSS is the page's whole style. Chart text falls back to Arimo and
// Arial, metrically equal to the Liberation Sans gonum/plot measured.
const pageCSS = `
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif; color: #222; margin: 0; background: #fafafa; }
header { background: #0072b2; color: #fff; padding: 12px 24px; }
h1 { font-size: 20px; margin: 0; overflow-wrap: anywhere; }
main { padding: 8px 24px 32px; max-width: 1360px; }
h2 { font-size: 18px; border-bottom: 2px solid #0072b2; padding-bottom: 2px; margin-top: 24px; }
h3 { font-size: 15px; margin: 20px 0 8px; }
dl.fields { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 0; }
dl.fields dt { color: #555; }
dl.fields dd { margin: 0; overflow-wrap: anywhere; }
div.table { overflow-x: auto; margin: 6px 0 12px; }
table { border-collapse: collapse; background: #fff; }
th, td { border: 1px solid #ddd; padding: 3px 8px; text-align: left; vertical-align: top; }
th.num, td.num { text-align: right; }
td.num { white-space: nowrap; }
td { font-variant-numeric: tabular-nums; overflow-wrap: normal; word-break: normal; }
td:not(.num) { min-width: 8em; max-width: 40em; }
th { background: #f0f0f0; font-weight: 600; }
td.pass { color: #006b4f; }
td.fail { color: #a04000; font-weight: 600; }
#measurement.valid { color: #006b4f; }
#measurement.questionable { color: #a04000; font-weight: 600; }
td.unsure { color: #7a5c00; }
.note { color: #555; margin: 4px 0; }
.charts { display: flex; flex-wrap: wrap; gap: 16px; }
figure { margin: 0; background: #fff; border: 1px solid #ddd; padding: 8px; width: 640px; }
figcaption { font-size: 12px; color: #444; margin-bottom: 4px; }
svg.chart { display: block; width: 640px; height: 360px; }
svg.chart text { font-family: "Liberation Sans", Arimo, Arial, Helvetica, sans-serif !important; }
section.point { border-left: 3px solid #56b4e9; padding-left: 12px; }
`
