package danger

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
	"time"
)

// BenchmarkJudgeCorpus times every corpus command and reports the per-command p50 and p99.
// Target: p99 <= 50 µs.
func BenchmarkJudgeCorpus(b *testing.B) {
	cases := loadCorpus(b)
	in := Input{World: testWorld("")}
	timeEach(b, len(cases), func(i int) { Judge(cases[i].Cmd, in) })
}

// BenchmarkJudgePowerShellCorpus times every PowerShell case of the corpus and the holdouts
// (judged as the PowerShell tool's scripts, in their own world) and reports the per-script p50
// and p99, beside BenchmarkJudgeCorpus's Bash figures.
func BenchmarkJudgePowerShellCorpus(b *testing.B) {
	var cases []corpusCase
	for _, f := range []string{"testdata/corpus.jsonl", "testdata/holdout16.jsonl", "testdata/holdout19.jsonl"} {
		for _, c := range loadCases(b, f) {
			if c.Shell == "powershell" {
				cases = append(cases, c)
			}
		}
	}
	ins := make([]Input, len(cases))
	for i, c := range cases {
		ins[i] = Input{World: c.world()}
	}
	timeEach(b, len(cases), func(i int) { JudgePowerShell(cases[i].Cmd, ins[i]) })
}

// timeEach times judge(i) for every case i of n, over b's passes, and reports the p50 and p99
// over the cases of each case's median time: a command's cost, not the machine's noise (one
// pass that a scheduler's pause or a page fault hits does not make a command slow). A hook
// process judges one command and exits long before its heap would trigger a collection; here
// thousands of judgements share one heap. So the collector is off while a pass is timed, and
// runs between passes.
func timeEach(b *testing.B, n int, judge func(i int)) {
	times := make([][]time.Duration, n)
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	for b.Loop() {
		for i := range n {
			start := time.Now()
			judge(i)
			times[i] = append(times[i], time.Since(start))
		}
		runtime.GC()
	}
	medians := make([]time.Duration, n)
	for i, ts := range times {
		slices.Sort(ts)
		medians[i] = ts[len(ts)/2]
	}
	slices.Sort(medians)
	b.ReportMetric(float64(medians[n/2].Nanoseconds())/1e3, "p50-µs")
	b.ReportMetric(float64(medians[n*99/100].Nanoseconds())/1e3, "p99-µs")
	b.ReportMetric(0, "ns/op")
}

// pathological are 64 KB commands built to stress the parser and the analysis.
func pathological() map[string]string {
	const size = 64 << 10
	fill := func(unit string) string { return strings.Repeat(unit, size/len(unit)) }
	return map[string]string{
		"long pipeline":  "echo x" + fill(" | cat"),
		"many arguments": "rm -f" + fill(" build/a.o"),
		"and-chain":      "true" + fill(" && true"),
		"nested quotes":  "echo " + fill(`"'\"x\"'"`),
		"substitutions":  "echo" + fill(" $(echo a)"),
		"braces":         "echo " + fill("{a,b}"),
		"heredoc":        "cat <<EOF > out.txt\n" + fill("line $HOME x\n") + "EOF",
		"nested bash -c": nestBashC(8),
		"long word":      "echo " + fill("a"),
	}
}

func nestBashC(depth int) string {
	s := "rm -rf /tmp/x"
	for range depth - 1 {
		s = "bash -c " + sq(s)
	}
	return s + strings.Repeat(" ", 64<<10-len(s))
}

// BenchmarkPathological times each 64 KB command. Target: <= 5 ms each.
func BenchmarkPathological(b *testing.B) {
	for name, cmd := range pathological() {
		b.Run(strings.ReplaceAll(name, " ", "-"), func(b *testing.B) {
			in := Input{World: testWorld("")}
			for b.Loop() {
				Judge(cmd, in)
			}
		})
	}
}

// The pathological commands are judged (not crashed on), and within the limits.
func TestPathologicalAreJudged(t *testing.T) {
	for name, cmd := range pathological() {
		start := time.Now()
		v := Judge(cmd, Input{World: testWorld("")})
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("%s: took %v", name, d)
		}
		if name == "substitutions" || name == "long pipeline" || name == "and-chain" {
			continue // these may exceed the command limit, and are then denied
		}
		if v.Action == Deny && v.Findings[0].Pack != "limits" {
			t.Errorf("%s: %s", name, v.Reason())
		}
	}
}

func FuzzJudge(f *testing.F) {
	for _, c := range loadCorpus(f)[:200] {
		f.Add(c.Cmd)
	}
	in := Input{World: testWorld("")}
	f.Fuzz(func(t *testing.T, cmd string) {
		start := time.Now()
		v := Judge(cmd, in)
		if d := time.Since(start); d > time.Second {
			t.Fatalf("judging %d bytes took %v", len(cmd), d)
		}
		if v.Action == Deny && len(v.Findings) == 0 {
			t.Fatal("a deny without a finding")
		}
		if v.Action != Allow {
			if r := v.Reason(); r == "" {
				t.Fatal("a verdict without a reason")
			}
		}
		_ = fmt.Sprint(v.Action)
	})
}

// psScript10K is a 10 KB build script of everyday PowerShell: loops, pipelines, strings,
// here-strings, hash tables and .NET calls.
func psScript10K() string {
	chunk := `$out = Join-Path $PWD 'build'
if (Test-Path $out) { Remove-Item -Recurse -Force $out }
New-Item -ItemType Directory -Path $out | Out-Null
$opts = @{ Path = '.\src'; Filter = '*.cs'; Recurse = $true }
Get-ChildItem @opts | ForEach-Object { Write-Host "compiling $($_.Name)" }
$msg = @'
Remove-Item -Recurse -Force C:\Windows is only text here
'@
[IO.File]::WriteAllText("$out\notes.txt", $msg)
dotnet build -c Release --nologo; git status --short # done
`
	return strings.Repeat(chunk, 10*1024/len(chunk)+1)
}

// BenchmarkJudgePowerShell: a 10 KB script is judged within milliseconds.
func BenchmarkJudgePowerShell(b *testing.B) {
	script, in := psScript10K(), Input{World: windowsWorld()}
	for b.Loop() {
		JudgePowerShell(script, in)
	}
}

// TestJudgePowerShellFast keeps the 10 KB script's judgement well inside a hook's budget.
func TestJudgePowerShellFast(t *testing.T) {
	script, in := psScript10K(), Input{World: windowsWorld()}
	start := time.Now()
	v := JudgePowerShell(script, in)
	if d := time.Since(start); d > 500*time.Millisecond {
		t.Errorf("a %d-byte script took %v", len(script), d)
	}
	if v.Action != Allow {
		t.Errorf("the everyday script is decided %s by %s: %s", v.Action, v.Findings[0].Rule, v.Findings[0].Why)
	}
}
