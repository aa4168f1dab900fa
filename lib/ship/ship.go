package ship

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gofrs/flock"
	"github.com/tidwall/gjson"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlplog/otlploghttp"
	"go.opentelemetry.io/otel/log"
	sdklog "go.opentelemetry.io/otel/sdk/log"
	"go.opentelemetry.io/otel/sdk/resource"
)

// EventName names every shipped log record's event (OTLP's EventName field).
const EventName = "harness.audit"

// ErrBusy is returned when another shipper holds a folder's lock: it is sending those records.
var ErrBusy = errors.New("another harness audit ship is sending this project's records")

// Identity is who ships: the resource every record carries (service.name is "harness").
type Identity struct {
	Host, User, Version string
}

// Shipper sends audit folders to one OTLP endpoint.
type Shipper struct {
	exp      sdklog.Exporter
	provider *sdklog.LoggerProvider
	logger   log.Logger
	held     *held
	batch    int
	timeout  time.Duration
	endpoint string
	// Now is the clock for observed timestamps and the checkpoint (tests pin it).
	Now func() time.Time
}

// New makes a shipper for cfg's endpoint with the header values already read
// (HeaderValues). It makes no connection.
func New(cfg Config, headers map[string]string, id Identity) (*Shipper, error) {
	if err := CheckEndpoint(cfg.Endpoint); err != nil {
		return nil, err
	}
	if headers == nil {
		headers = map[string]string{} // set, so OTEL_EXPORTER_OTLP_HEADERS meant for another program is not sent
	}
	timeout := cfg.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	proxy := http.ProxyFromEnvironment
	if !cfg.EnvProxy {
		proxy = func(*http.Request) (*url.URL, error) { return nil, nil }
	}
	exp, err := otlploghttp.New(context.Background(),
		otlploghttp.WithEndpointURL(logsURL(cfg.Endpoint)),
		otlploghttp.WithProxy(proxy),
		otlploghttp.WithHeaders(headers),
		otlploghttp.WithCompression(otlploghttp.GzipCompression),
		otlploghttp.WithTimeout(timeout),
		otlploghttp.WithRetry(otlploghttp.RetryConfig{
			Enabled: true, InitialInterval: 250 * time.Millisecond, MaxInterval: 2 * time.Second, MaxElapsedTime: timeout,
		}),
	)
	if err != nil {
		return nil, fmt.Errorf("making the OTLP exporter: %w", err)
	}
	s := NewWithExporter(exp, cfg.Batch, timeout, id)
	s.endpoint = logsURL(cfg.Endpoint)
	return s, nil
}

// NewWithExporter makes a shipper that hands its batches to exp.
func NewWithExporter(exp sdklog.Exporter, batch int, timeout time.Duration, id Identity) *Shipper {
	if batch <= 0 {
		batch = DefaultBatch
	}
	h := &held{}
	attrs := []attribute.KeyValue{attribute.String("service.name", "harness")}
	for k, v := range map[string]string{"service.version": id.Version, "host.name": id.Host, "user.name": id.User} {
		if v != "" {
			attrs = append(attrs, attribute.String(k, v))
		}
	}
	provider := sdklog.NewLoggerProvider(
		sdklog.WithResource(resource.NewSchemaless(attrs...)),
		sdklog.WithProcessor(h),
	)
	return &Shipper{
		exp: exp, provider: provider, held: h, batch: batch, timeout: timeout,
		logger: provider.Logger("github.com/hookkit/harness/lib/ship", log.WithInstrumentationVersion(id.Version)),
		Now:    time.Now,
	}
}

// Close releases the exporter.
func (s *Shipper) Close() error {
	s.provider.Shutdown(context.Background())
	return s.exp.Shutdown(context.Background())
}

// held is the processor that keeps the records of the batch being built: the shipper exports
// them itself, so it knows the endpoint accepted a batch before the checkpoint moves past it
// (the SDK's batch processor exports in the background and forgets failures).
type held struct{ recs []sdklog.Record }

func (h *held) OnEmit(_ context.Context, r *sdklog.Record) error {
	h.recs = append(h.recs, r.Clone())
	return nil
}
func (h *held) Enabled(context.Context, sdklog.EnabledParameters) bool { return true }
func (h *held) Shutdown(context.Context) error                         { return nil }
func (h *held) ForceFlush(context.Context) error                       { return nil }

// Result is what one folder's run did.
type Result struct {
	Dir string
	// Shipped records were accepted; Skipped malformed lines were passed over (never sent).
	Shipped, Skipped int
	Batches          int
	// Done is true when everything pending at the start was accepted; false when the
	// context ended first (the rest waits for the next run).
	Done bool
	// Head is the chain head sent with the batches (its seq is 0 for records without one).
	Head    string
	HeadSeq int64
	// Note says why the run did not resume where the checkpoint said, when it did not.
	Note string
}

// RejectedError is the endpoint's refusal of a batch (unreachable, 4xx, 5xx, timed out), in
// one line.
type RejectedError struct {
	Endpoint string
	Records  int
	Reason   string
}

func (e *RejectedError) Error() string {
	return fmt.Sprintf("%s did not accept %d records: %s", e.Endpoint, e.Records, e.Reason)
}

// Ship sends one project's audit folder from its checkpoint to the end of the log as it was
// when the run began, a batch at a time; the checkpoint moves after each accepted batch. It
// holds the folder's ship lock for the run (ErrBusy when another shipper has it). When ctx
// ends, the run stops between batches, or abandons the batch in flight (to be sent again
// with the same ids), and returns with Done false and no error.
func (s *Shipper) Ship(ctx context.Context, dir string) (Result, error) {
	res := Result{Dir: dir}
	lock := flock.New(filepath.Join(dir, "ship.lock"))
	ok, err := lock.TryLock()
	if err != nil {
		return res, fmt.Errorf("locking %s: %w", dir, err)
	}
	if !ok {
		return res, ErrBusy
	}
	defer lock.Unlock()

	cp, _, err := ReadCheckpoint(dir)
	if err != nil {
		res.Note = fmt.Sprintf("the checkpoint cannot be read (%v): shipping the whole log again", err)
		cp = Checkpoint{}
	}
	files, err := snapshot(dir)
	if err != nil {
		return res, fmt.Errorf("listing %s: %w", dir, err)
	}
	var headOK bool
	res.Head, res.HeadSeq, headOK = head(dir, files)
	fi, off, note, err := locate(dir, files, cp)
	if err != nil {
		return res, err
	}
	if note != "" {
		res.Note = note
	}
	headAttrs := []attribute.KeyValue(nil)
	if headOK {
		headAttrs = append(headAttrs, attribute.String("harness.chain.head", res.Head))
		if res.HeadSeq > 0 {
			headAttrs = append(headAttrs, attribute.Int64("harness.chain.seq", res.HeadSeq))
		}
	}

	s.held.recs = s.held.recs[:0]
	next := cp // the checkpoint once the held batch is accepted
	moved := false
	var sendErr error
	stopped := false
	send := func() bool {
		if len(s.held.recs) == 0 {
			if moved { // malformed lines only since the last batch: move past them
				next.Time = s.Now().UTC().Format(time.RFC3339)
				if err := writeCheckpoint(dir, next); err != nil {
					sendErr = err
					return false
				}
				cp, moved = next, false
			}
			return true
		}
		if ctx.Err() != nil {
			stopped = true
			return false
		}
		n := len(s.held.recs)
		bctx, cancel := context.WithTimeout(ctx, s.timeout)
		err := s.exp.Export(bctx, s.held.recs)
		cancel()
		s.held.recs = s.held.recs[:0]
		if err != nil {
			if ctx.Err() != nil {
				stopped = true
			} else {
				sendErr = &RejectedError{Endpoint: s.endpointName(), Records: n, Reason: oneLine(err.Error(), 300)}
			}
			return false
		}
		res.Shipped += n
		res.Batches++
		next.Shipped += int64(n)
		next.Time, next.Error = s.Now().UTC().Format(time.RFC3339), ""
		if err := writeCheckpoint(dir, next); err != nil {
			sendErr = fmt.Errorf("%d records were accepted but the checkpoint was not written (they will be sent again): %w", n, err)
			return false
		}
		cp, moved = next, false
		return true
	}

	observed := s.Now()
	err = each(dir, files, fi, off, func(l line) (bool, error) {
		next.ID, next.File, next.Start, next.Offset = l.id, files[l.file].name, l.start, l.end
		moved = true
		rec, t, ok := record(l.text)
		if !ok {
			res.Skipped++
			next.Skipped++
			return true, nil
		}
		if seq := rec.Get("seq").Int(); seq > 0 {
			next.Seq = seq
		}
		s.logger.Emit(ctx, logRecord(rec, t, observed, l.text, l.id, headAttrs))
		if len(s.held.recs) >= s.batch {
			return send(), nil
		}
		return true, nil
	})
	if err == nil && sendErr == nil && !stopped {
		send()
	}
	switch {
	case err != nil:
		return res, err
	case sendErr != nil:
		cp.Error, cp.Time = sendErr.Error(), s.Now().UTC().Format(time.RFC3339)
		writeCheckpoint(dir, cp) // for doctor: the reason the records are still here
		return res, sendErr
	}
	res.Done = !stopped
	return res, nil
}

func (s *Shipper) endpointName() string {
	if s.endpoint == "" {
		return "the endpoint"
	}
	return s.endpoint
}

// logRecord makes the OpenTelemetry log record of one audit line: the line itself is the
// body (so a backend can recompute its id), its fields are attributes under Claude Code's own
// names where they mean the same (session.id, prompt.id, tool_name, tool_use_id, duration_ms,
// error) and under harness.* otherwise.
func logRecord(rec gjson.Result, t, observed time.Time, text []byte, id string, head []attribute.KeyValue) log.Record {
	var r log.Record
	r.SetEventName(EventName)
	r.SetTimestamp(t)
	r.SetObservedTimestamp(observed)
	r.SetBody(attribute.StringValue(string(text)))
	switch rec.Get("decision").Str {
	case "deny", "block":
		r.SetSeverity(log.SeverityWarn)
		r.SetSeverityText("WARN")
	case "failed":
		r.SetSeverity(log.SeverityError)
		r.SetSeverityText("ERROR")
	default:
		r.SetSeverity(log.SeverityInfo)
		r.SetSeverityText("INFO")
	}
	attrs := make([]attribute.KeyValue, 0, 16)
	attrs = append(attrs, attribute.String("harness.record.id", id))
	rec.ForEach(func(k, v gjson.Result) bool {
		name, known := attrNames[k.Str]
		switch {
		case k.Str == "time":
			return true
		case !known:
			name = "harness." + k.Str
		}
		switch v.Type {
		case gjson.String:
			attrs = append(attrs, attribute.String(name, v.Str))
		case gjson.Number:
			if float64(v.Int()) == v.Num {
				attrs = append(attrs, attribute.Int64(name, v.Int()))
			} else {
				attrs = append(attrs, attribute.Float64(name, v.Num))
			}
		case gjson.True, gjson.False:
			attrs = append(attrs, attribute.Bool(name, v.Bool()))
		default:
			attrs = append(attrs, attribute.String(name, v.Raw))
		}
		return true
	})
	attrs = append(attrs, head...)
	r.AddAttributes(attrs...)
	return r
}

// attrNames are the attribute names of the audit fields: Claude Code's own where they mean
// the same thing, so a backend joins the two streams; the rest under harness.
var attrNames = map[string]string{
	"session":     "session.id",
	"prompt_id":   "prompt.id",
	"tool":        "tool_name",
	"tool_use_id": "tool_use_id",
	"duration_ms": "duration_ms",
	"error":       "error",
	"seq":         "harness.record.seq",
	"prev":        "harness.record.prev",
}

// oneLine folds a message onto one line and caps it.
func oneLine(s string, limit int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > limit {
		s = string(r[:limit-1]) + "…"
	}
	return s
}

// Folders are the audit folders under a harness home, one per project.
func Folders(harnessHome string) ([]string, error) {
	dirs, err := filepath.Glob(filepath.Join(harnessHome, "projects", "*", "audit"))
	if err != nil {
		return nil, err
	}
	var out []string
	for _, d := range dirs {
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			out = append(out, d)
		}
	}
	return out, nil
}
