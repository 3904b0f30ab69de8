package lp

import (
	"context"
	"flag"
	"math"
	"os/exec"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"
)

// miplibNodes is the node limit of each MIPLIB instance in TestMIPLIB, and
// whether the instance must be proven optimal within it (the limits are
// about twice the nodes the solver needed when they were set). Node limits
// keep the test deterministic (a time limit would depend on the machine's
// load). Instances not (yet) proven within their limit are reported by
// name, with their incumbent, bound and gap, and still checked: the
// incumbent must be feasible and no better than the published optimum, the
// bound no worse. short instances also run in -short mode (and the race
// pass); long ones (bell3a, l152lav, stein45, vpm2 and mas76, proven in
// 10–60 s each on a quiet 2-core machine) only with -miplib.long, and are
// reported by name otherwise: `go test ./placement/lp -run TestMIPLIB
// -miplib.long` proves all 23.
var miplibNodes = []struct {
	name        string
	nodes       int
	prove       bool
	short, long bool
}{
	{"10teams", 50, true, false, false}, // proven at the root: the propagation dive's sub-MIP finds 924
	{"bell3a", 50000, true, false, true},
	{"blend2", 6000, true, false, false},
	{"dcmulti", 400, true, false, false},
	{"egout", 100, true, true, false},
	{"fiber", 1500, true, false, false},
	{"flugpl", 4000, true, true, false},
	{"gesa2", 500, true, false, false},
	{"gesa3", 400, true, false, false},
	{"gt2", 600, true, true, false},
	{"l152lav", 2500, true, false, true},
	{"mas76", 600000, true, false, true}, // ≈ 414 000 nodes, ≈ 60 s
	{"misc06", 100, true, false, false},
	{"mod008", 15000, true, false, false},
	{"modglob", 6000, true, false, false},
	{"p0033", 1000, true, true, false},
	{"p0282", 1000, true, false, false},
	{"p2756", 1500, true, false, false},
	{"pp08aCUTS", 1400, true, false, false},
	{"qnet1_o", 1500, true, false, false},
	{"rgn", 5000, true, false, false},
	{"stein45", 120000, true, false, true},
	{"vpm2", 80000, true, false, true}, // ≈ 40 000 nodes, ≈ 30 s; TestVPM2NodeLPsSolve runs 10 000 in the plain pass
}

var miplibLong = flag.Bool("miplib.long", false, "TestMIPLIB also runs its long instances")

// miplibSlowest are the instances TestMIPLIB takes longest on, slowest
// first: the long ones (with -miplib.long), then those it runs by default
// (3 to 1.5 s each on a quiet machine).
var miplibSlowest = []string{"mas76", "vpm2", "stein45", "l152lav", "bell3a", "qnet1_o", "blend2", "10teams", "p2756", "pp08aCUTS", "modglob"}

// TestMIPLIB solves the MIPLIB 3 instances of testdata/miplib within their
// node limits: proven optimal at the published value (1e-6 relative) where
// the table says so; every solution is checked for feasibility and
// integrality, every bound against the published optimum. The instances
// are subtests run in parallel, the slowest first.
func TestMIPLIB(t *testing.T) {
	names, opt := testInstances(t, "miplib")
	if len(names) != len(miplibNodes) {
		t.Fatalf("%d instances in testdata, %d in miplibNodes", len(names), len(miplibNodes))
	}
	for k, c := range miplibNodes {
		if names[k] != c.name {
			t.Fatalf("instance %d is %s in testdata, %s in miplibNodes", k, names[k], c.name)
		}
	}
	var (
		mu       sync.Mutex // guards unproven
		unproven []string
		notRun   []string
		order    []string
		byName   = map[string]int{}
	)
	for k, c := range miplibNodes {
		order = append(order, c.name)
		byName[c.name] = k
	}
	// The summary follows the subtests, which run in parallel after this
	// function returns.
	t.Cleanup(func() {
		slices.Sort(unproven)
		slices.Sort(notRun)
		if len(unproven) > 0 {
			t.Logf("MIPLIB instances not proven optimal within their node limits: %v", unproven)
		}
		if len(notRun) > 0 {
			t.Logf("MIPLIB instances not run (pass -miplib.long): %v", notRun)
		}
	})
	for _, name := range slowestFirst(order, miplibSlowest) {
		c := miplibNodes[byName[name]]
		if (testing.Short() || raceEnabled) && !c.short {
			continue
		}
		if c.long && !*miplibLong {
			notRun = append(notRun, c.name)
			t.Logf("%s: not run (long; pass -miplib.long to run it)", c.name)
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p, err := ReadMPSFile(instancePath("miplib", c.name))
			if err != nil {
				t.Fatal(err)
			}
			want := opt[c.name]
			start := time.Now()
			res, err := Solve(context.Background(), p, Options{NodeLimit: c.nodes})
			if err != nil {
				t.Fatalf("Solve: %v", err)
			}
			el := time.Since(start)
			if res.HasSolution() {
				checkMIPSolution(t, p, res)
			}
			tol := 1e-6 * max(1, math.Abs(want))
			worse := func(a, b float64) bool { // a worse than b by more than tol
				if p.Maximize {
					return a < b-tol
				}
				return a > b+tol
			}
			if res.HasSolution() && worse(want, res.Objective) {
				t.Errorf("incumbent %.10g better than the published optimum %.10g", res.Objective, want)
			}
			if worse(res.Bound, want) {
				t.Errorf("bound %.10g worse than the published optimum %.10g: not a bound", res.Bound, want)
			}
			switch {
			case res.Status == Optimal:
				if !relClose(res.Objective, want, 1e-6) {
					t.Errorf("optimal %.10g, published %.10g", res.Objective, want)
				}
				t.Logf("proven optimal %.10g in %d nodes, %d iterations, %v", res.Objective, res.Nodes, res.Iterations, el.Round(time.Millisecond))
			case c.prove:
				t.Errorf("not proven optimal within %d nodes: %v, incumbent %.10g, bound %.10g (published %.10g)", c.nodes, res.Status, res.Objective, res.Bound, want)
			default:
				mu.Lock()
				unproven = append(unproven, c.name)
				mu.Unlock()
				inc := "none"
				if res.HasSolution() {
					inc = formatFloat(res.Objective)
				}
				t.Logf("NOT PROVEN within %d nodes (%v): incumbent %s, bound %.10g, gap %.3g, published %.10g, %v",
					c.nodes, res.Status, inc, res.Bound, res.Gap, want, el.Round(time.Millisecond))
			}
		})
	}
}

func formatFloat(v float64) string { return fmtFloat(v) }

var miplibTime = flag.Duration("miplib.time", 120*time.Second, "time limit of one instance in BenchmarkMIPLIB")

// BenchmarkMIPLIB solves each MIPLIB instance with this package and with
// the cbc binary (cbc FILE -solve, single-threaded) in the same run, one
// instance after the other. Metrics: nodes, nodes/s (wall clock), and
// proven (1 when proven optimal at the published value within
// -miplib.time). Compare the two with the ns/op columns of .../lp/<name>
// and .../cbc/<name>.
func BenchmarkMIPLIB(b *testing.B) {
	names, opt := testInstances(b, "miplib")
	cbc, cbcErr := exec.LookPath("cbc")
	dir := b.TempDir()
	for _, name := range names {
		p, err := ReadMPSFile(instancePath("miplib", name))
		if err != nil {
			b.Fatal(err)
		}
		b.Run("lp/"+name, func(b *testing.B) {
			b.ReportAllocs()
			var res Result
			for b.Loop() {
				res, err = Solve(context.Background(), p, Options{TimeLimit: *miplibTime})
				if err != nil {
					b.Fatal(err)
				}
			}
			proven := 0.0
			if res.Status == Optimal && relClose(res.Objective, opt[name], 1e-6) {
				proven = 1
			}
			b.ReportMetric(float64(res.Nodes), "nodes")
			b.ReportMetric(float64(res.Nodes)/b.Elapsed().Seconds(), "nodes/s")
			b.ReportMetric(proven, "proven")
		})
		b.Run("cbc/"+name, func(b *testing.B) {
			if cbcErr != nil {
				b.Skipf("cbc not found: %v", cbcErr)
			}
			file := filepath.Join(dir, name+".mps")
			if err := gunzipFile(instancePath("miplib", name), file); err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				out, err := exec.Command(cbc, file, "-sec", formatFloat(miplibTime.Seconds()), "-solve").CombinedOutput()
				if err != nil {
					b.Fatalf("cbc: %v\n%s", err, out)
				}
			}
		})
	}
}
