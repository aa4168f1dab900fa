package report

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"fmt"
	"html/template"
	"io"
	"strings"
	"time"
)

var (
	//go:embed page.tmpl
	pageSource string
	//go:embed page.css
	pageCSS string
	//go:embed page.js
	pageJS string
)

// CSP is the page's Content-Security-Policy: nothing from the network, no plugin, no form,
// no base; only its own style and script, by hash.
var CSP = "default-src 'none'; script-src " + hashSource(pageJS) + "; style-src " + hashSource(pageCSS) +
	"; img-src 'none'; base-uri 'none'; form-action 'none'"

func hashSource(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}

// page is the template: the style, script and policy go in as literal text, so they are
// written byte for byte as hashed.
var page = template.Must(template.New("page").Funcs(template.FuncMap{
	"stamp": func(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05") },
	"day":   func(t time.Time) string { return t.UTC().Format(time.DateOnly) },
	"clock": func(t time.Time) string { return t.UTC().Format("2006-01-02 15:04") },
	"chart": chart,
}).Parse(strings.NewReplacer("@CSP@", CSP, "@CSS@", pageCSS, "@JS@", pageJS).Replace(pageSource)))

// MaxPage is the size a page stays under: past it, fewer sessions are shown one by one.
const MaxPage = 5 << 20

// Write renders the page. Should it come out larger than MaxPage (texts that escape to
// several times their length), it is rendered again with half the sessions shown one by one,
// the rest summed per day, until it fits.
func (d *Data) Write(w io.Writer) error {
	var b bytes.Buffer
	for {
		b.Reset()
		if err := page.Execute(&b, d); err != nil {
			return fmt.Errorf("rendering the report: %w", err)
		}
		if b.Len() <= MaxPage || len(d.Sessions) == 0 {
			break
		}
		d.fold(len(d.Sessions) / 2)
	}
	_, err := w.Write(b.Bytes())
	return err
}

// NeverRan are doctor's findings on hooks configured but never run.
func (d *Data) NeverRan() []Finding { return d.doctor("ran") }

// Unguarded are doctor's findings on sessions that ran with no harness hook.
func (d *Data) Unguarded() []Finding { return d.doctor("unguarded") }

func (d *Data) doctor(check string) []Finding {
	var out []Finding
	for _, f := range d.Doctor {
		if f.Check == check {
			out = append(out, f)
		}
	}
	return out
}

// Summary is the headline as data, embedded in the page as JSON for tools that read it.
func (d *Data) Summary() any {
	type named struct {
		Name string `json:"name"`
		Counts
	}
	conv := func(ns []Named) []named {
		out := make([]named, len(ns))
		for i, n := range ns {
			out[i] = named(n)
		}
		return out
	}
	return struct {
		Since    time.Time `json:"since"`
		Until    time.Time `json:"until"`
		Records  int       `json:"records"`
		Total    Counts    `json:"total"`
		Clients  []named   `json:"clients"`
		Projects []named   `json:"projects"`
		Problems []string  `json:"problems"`
	}{d.Since.UTC(), d.Until.UTC(), d.Records, d.Total, conv(d.Clients), conv(d.Projects), d.Problems}
}

// svgChart is the chart's geometry, in the SVG's own units.
type svgChart struct {
	W, H, Left, Base, TopLabel int
	Max                        int
	Unit                       string
	Bars                       []svgBar
	Ticks                      []svgTick
}

type svgBar struct {
	X, W, YB, HB, YA, HA float64
	Title                string
}

type svgTick struct {
	X, Y  float64
	Label string
}

// chart lays out the buckets as stacked bars (blocked under asked), only those that are not
// empty, with a date under the axis every so often.
func chart(d *Data) svgChart {
	c := svgChart{W: 960, H: 220, Left: 40, Base: 190, TopLabel: 22, Unit: "day"}
	layout := "2006-01-02"
	if d.Step == time.Hour {
		c.Unit, layout = "hour", "2006-01-02 15:00"
	}
	for _, b := range d.Buckets {
		c.Max = max(c.Max, b.Blocked+b.Asked)
	}
	n := len(d.Buckets)
	if n == 0 {
		return c
	}
	plot := float64(c.W - c.Left)
	slot := plot / float64(n)
	height := float64(c.Base - c.TopLabel)
	for i, b := range d.Buckets {
		if b.Blocked+b.Asked == 0 {
			continue
		}
		x := float64(c.Left) + float64(i)*slot
		w := max(slot*0.8, 0.5)
		hb := height * float64(b.Blocked) / float64(c.Max)
		ha := height * float64(b.Asked) / float64(c.Max)
		c.Bars = append(c.Bars, svgBar{X: round(x), W: round(w), YB: round(float64(c.Base) - hb), HB: round(hb),
			YA: round(float64(c.Base) - hb - ha), HA: round(ha),
			Title: fmt.Sprintf("%s: %d blocked, %d asked", b.Start.UTC().Format(layout), b.Blocked, b.Asked)})
	}
	every := max(1, n/6)
	for i := 0; i < n && float64(c.Left)+float64(i)*slot < float64(c.W-70); i += every { // a label needs room
		label := d.Buckets[i].Start.UTC().Format("Jan 2")
		if d.Step == time.Hour && n <= 48 {
			label = d.Buckets[i].Start.UTC().Format("Jan 2 15:00")
		}
		c.Ticks = append(c.Ticks, svgTick{X: round(float64(c.Left) + float64(i)*slot), Y: float64(c.Base + 18), Label: label})
	}
	return c
}

func round(f float64) float64 { return float64(int(f*10+0.5)) / 10 }
