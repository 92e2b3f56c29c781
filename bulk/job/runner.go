package job

import (
	"fmt"
	"net"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/metrics"
)

// CheckRunner refuses a local output directory on a runner whose
// workers are other machines: their files would land on the workers'
// own disks, scattered and lost. Such runners are dataflow, flink and
// spark, and universal (or portable, or prism submitting to a job
// server) with an endpoint that is not a loopback address; a job server
// on this machine (127.0.0.1, ::1, localhost) runs its LOOPBACK workers
// here, so a local directory works. Use shared storage (gs://, s3://)
// on a cluster.
func CheckRunner(output, runner, endpoint string) error {
	if strings.Contains(output, "://") {
		return nil
	}
	cluster := false
	switch strings.ToLower(runner) {
	case "dataflow", "dataflowrunner", "flink", "flinkrunner", "spark", "sparkrunner":
		cluster = true
	case "universal", "portable", "portablerunner", "prism", "prismrunner", "":
		cluster = endpoint != "" && !loopback(endpoint)
	}
	if cluster {
		return &ConfigError{What: "output " + output, Err: fmt.Errorf(
			"a local directory on runner %q (endpoint %q): the workers would write to their own disks; use shared storage (gs://..., s3://...)", runner, endpoint)}
	}
	return nil
}

// InProcess tells whether the runner is prism in this process (no
// endpoint): the runner where Bucket grouping pays.
func InProcess(runner, endpoint string) bool {
	switch strings.ToLower(runner) {
	case "", "prism", "prismrunner":
		return endpoint == ""
	}
	return false
}

func loopback(endpoint string) bool {
	host, _, err := net.SplitHostPort(endpoint)
	if err != nil {
		host = endpoint
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Counters sums the job's counters (namespace "locator") over steps:
// files_read, urls_read, urls_judged, urls_conforming, dead_letters.
// Empty when the runner reports no metrics.
func Counters(r metrics.Results) map[string]int64 {
	out := map[string]int64{}
	for _, c := range r.AllMetrics().Counters() {
		if c.Namespace() == "locator" {
			out[c.Name()] += c.Result()
		}
	}
	return out
}
