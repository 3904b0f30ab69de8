package lp

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Side-by-side benchmarks of the built-in solver and the COIN-OR peers on
// the instance suites, in the same run:
//
//	go test -run '^$' -bench 'VersusCLP|VersusCBC' -benchtime 1x ./placement/lp/
//
// Each iteration solves the whole suite once with both; the table (shown
// with -v, or always when an instance fails) lists each instance's times,
// and the metrics are the shifted geometric means (shift 10 ms) and the
// ratios builtin/peer of
//
//   - solve times: the built-in Solve's Elapsed (problem already read)
//     against the solve time the peer reports itself (CLP's "time" after
//     its iteration count, CPU seconds with a 10 ms granularity; CBC's
//     wall-clock seconds), "ratio";
//   - times with reading: ReadMPSFile plus Solve against the wall time of
//     the peer's whole process (which reads the same .mps.gz),
//     "wall-ratio".

const sgmShift = 10 * time.Millisecond

// benchTimeLimit bounds each built-in solve of the suites; an instance
// that reaches it is reported as failed (its time counts as the limit).
const benchTimeLimit = 5 * time.Minute

// shiftedGeoMean returns exp(mean(log(t_i + shift))) − shift.
func shiftedGeoMean(ts []time.Duration, shift time.Duration) time.Duration {
	if len(ts) == 0 {
		return 0
	}
	sum := 0.0
	for _, t := range ts {
		sum += math.Log((t + shift).Seconds())
	}
	return time.Duration((math.Exp(sum/float64(len(ts))) - shift.Seconds()) * float64(time.Second))
}

var (
	clpTimeRe  = regexp.MustCompile(`(?m)^Optimal objective (\S+) - \d+ iterations time ([0-9.]+)`)
	cbcWallRe  = regexp.MustCompile(`\(Wallclock seconds\):\s+([0-9.]+)`)
	cbcValueRe = regexp.MustCompile(`(?m)^Objective value:\s+(\S+)`)
)

// peerRun runs a peer binary on an instance file and returns its own solve
// time, the objective it prints and the process wall time.
func peerRun(bin string, args []string, timeRe, objRe *regexp.Regexp) (solve time.Duration, obj float64, wall time.Duration, err error) {
	start := time.Now()
	out, err := exec.Command(bin, args...).CombinedOutput()
	wall = time.Since(start)
	if err != nil {
		return 0, 0, wall, fmt.Errorf("%s: %w", bin, err)
	}
	tm := timeRe.FindSubmatch(out)
	om := objRe.FindSubmatch(out)
	if tm == nil || om == nil {
		return 0, 0, wall, fmt.Errorf("%s: no optimal time/objective in its output:\n%s", bin, tail(out, 5))
	}
	secs, _ := strconv.ParseFloat(string(tm[len(tm)-1]), 64)
	obj, _ = strconv.ParseFloat(string(om[1]), 64)
	return time.Duration(secs * float64(time.Second)), obj, wall, nil
}

// benchSuite solves every instance of a testdata set with the built-in
// Solve and with a peer, checks both against optima.tsv (1e-6 relative)
// and reports the shifted geometric means and their ratio.
func benchSuite(b *testing.B, set string, peer func(path string) (time.Duration, float64, time.Duration, error)) {
	names, opt := testInstances(b, set)
	first, err := ReadMPSFile(instancePath(set, names[0]))
	if err != nil {
		b.Fatal(err)
	}
	if _, err := Solve(context.Background(), first, Options{IterationLimit: 1}); errors.Is(err, ErrUnsupported) {
		b.Skipf("the built-in Solve does not solve %s instances yet: %v", set, err)
	}
	var own, peers, ownWall, peerWall []time.Duration
	for b.Loop() {
		own, peers, ownWall, peerWall = own[:0], peers[:0], ownWall[:0], peerWall[:0]
		var table strings.Builder
		fmt.Fprintf(&table, "%-10s %12s %12s %7s %12s %12s %7s  %s\n", "instance", "builtin", "peer", "ratio", "builtin+read", "peer wall", "ratio", "check")
		failed := 0
		for _, name := range names {
			start := time.Now()
			p, err := ReadMPSFile(instancePath(set, name))
			if err != nil {
				b.Fatal(err)
			}
			res, err := Solve(context.Background(), p, Options{TimeLimit: benchTimeLimit})
			wall := time.Since(start)
			check := "ok"
			switch {
			case err != nil:
				check = "FAILED: " + err.Error()
			case res.Status != Optimal || !relClose(res.Objective, opt[name], 1e-6):
				check = fmt.Sprintf("FAILED: %v %.10g, want %.10g", res.Status, res.Objective, opt[name])
			}
			st, pobj, pwall, perr := peer(instancePath(set, name))
			if perr != nil {
				check += "; peer FAILED: " + perr.Error()
			} else if !relClose(pobj, opt[name], 1e-6) {
				check += fmt.Sprintf("; peer objective %.10g", pobj)
			}
			if strings.Contains(check, "FAILED") {
				failed++
			}
			own, peers = append(own, res.Elapsed), append(peers, st)
			ownWall, peerWall = append(ownWall, wall), append(peerWall, pwall)
			fmt.Fprintf(&table, "%-10s %12v %12v %7.2f %12v %12v %7.2f  %s\n", name,
				res.Elapsed.Round(time.Microsecond), st, shiftedRatio(res.Elapsed, st),
				wall.Round(time.Microsecond), pwall.Round(time.Microsecond), shiftedRatio(wall, pwall), check)
		}
		so, sp := shiftedGeoMean(own, sgmShift), shiftedGeoMean(peers, sgmShift)
		wo, wp := shiftedGeoMean(ownWall, sgmShift), shiftedGeoMean(peerWall, sgmShift)
		fmt.Fprintf(&table, "shifted geometric means (10 ms): solve: builtin %v, peer %v, ratio %.2f; with reading: builtin %v, peer process %v, ratio %.2f; %d of %d failed\n",
			so.Round(time.Microsecond), sp.Round(time.Microsecond), so.Seconds()/sp.Seconds(),
			wo.Round(time.Microsecond), wp.Round(time.Microsecond), wo.Seconds()/wp.Seconds(), failed, len(names))
		if failed > 0 {
			b.Errorf("%s:\n%s", set, table.String())
		} else {
			b.Logf("%s:\n%s", set, table.String())
		}
	}
	so, sp := shiftedGeoMean(own, sgmShift), shiftedGeoMean(peers, sgmShift)
	wo, wp := shiftedGeoMean(ownWall, sgmShift), shiftedGeoMean(peerWall, sgmShift)
	b.ReportMetric(float64(so.Microseconds())/1000, "builtin-sgm-ms")
	b.ReportMetric(float64(sp.Microseconds())/1000, "peer-sgm-ms")
	b.ReportMetric(so.Seconds()/sp.Seconds(), "ratio")
	b.ReportMetric(wo.Seconds()/wp.Seconds(), "wall-ratio")
	b.ReportMetric(0, "ns/op") // the suite time is not the point
}

// shiftedRatio is (a + shift)/(b + shift).
func shiftedRatio(a, b time.Duration) float64 {
	return (a + sgmShift).Seconds() / (b + sgmShift).Seconds()
}

// BenchmarkNetlibVersusCLP times the built-in Solve against
// "clp FILE -dualsimplex" on the 46 netlib instances.
func BenchmarkNetlibVersusCLP(b *testing.B) {
	clp, err := exec.LookPath("clp")
	if err != nil {
		b.Skipf("clp not found on PATH: %v (install coinor-clp)", err)
	}
	benchSuite(b, "netlib", func(path string) (time.Duration, float64, time.Duration, error) {
		return peerRun(clp, []string{path, "-dualsimplex"}, clpTimeRe, clpTimeRe)
	})
}

// BenchmarkMIPLIBVersusCBC times the built-in Solve against "cbc FILE
// -solve" on the 23 MIPLIB instances.
func BenchmarkMIPLIBVersusCBC(b *testing.B) {
	cbc, err := exec.LookPath("cbc")
	if err != nil {
		b.Skipf("cbc not found on PATH: %v (install coinor-cbc)", err)
	}
	benchSuite(b, "miplib", func(path string) (time.Duration, float64, time.Duration, error) {
		return peerRun(cbc, []string{path, "-solve"}, cbcWallRe, cbcValueRe)
	})
}

func TestShiftedGeoMean(t *testing.T) {
	// Closed forms: equal times give that time; {0, 30 ms} with shift 10
	// ms gives sqrt(10·40) − 10 = 10 ms.
	if got := shiftedGeoMean([]time.Duration{5 * time.Millisecond, 5 * time.Millisecond}, sgmShift); (got - 5*time.Millisecond).Abs() > time.Microsecond {
		t.Errorf("sgm(5, 5) = %v", got)
	}
	if got := shiftedGeoMean([]time.Duration{0, 30 * time.Millisecond}, sgmShift); (got - 10*time.Millisecond).Abs() > time.Microsecond {
		t.Errorf("sgm(0, 30) = %v, want 10ms", got)
	}
}
