//go:build !unix

package transcript

import (
	"os"
	"time"
)

// cpuTime is not measured where getrusage is missing: the benchmark reports 0.
func cpuTime() time.Duration { return 0 }

// maxRSS is not measured where getrusage is missing.
func maxRSS(*os.ProcessState) int64 { return 0 }
