package workload_test

import (
	"fmt"
	"log"
	"strings"
	"time"

	"github.com/gputco/gputco/workload"
)

// A chat service peaks at 14:00 and bottoms out at 02:00. Its load-duration
// curve (demand sorted from highest to lowest) over a day in hourly slices
// shows how many hours a given fraction of the peak GPUs is needed: the
// base that is worth committing to and the peak that is worth renting.
func ExampleLoadDuration() {
	chat, err := workload.NewDiurnal(0.6, 0.4, 14) // mean 0.6, swing ±0.4
	if err != nil {
		log.Fatal(err)
	}
	ldc, err := workload.LoadDuration(chat, 24*time.Hour, 24)
	if err != nil {
		log.Fatal(err)
	}
	for i := 0; i < len(ldc); i += 6 {
		fmt.Printf("hour %2d: %.3f\n", i+1, ldc[i])
	}
	above, _ := workload.HoursAbove(chat, 24*time.Hour, 0.8)
	mean, _ := workload.Mean(chat, 24*time.Hour)
	fmt.Printf("hours at or above 80%% of peak: %.1f\n", above)
	fmt.Printf("mean: %.2f of 64 GPUs = %.1f GPUs\n", mean, 64*mean)
	// Output:
	// hour  1: 0.997
	// hour  7: 0.844
	// hour 13: 0.548
	// hour 19: 0.283
	// hours at or above 80% of peak: 8.0
	// mean: 0.60 of 64 GPUs = 38.4 GPUs
}

// A scenario is a list of workloads in JSON; durations are Go duration
// strings and money is a decimal string. ReadScenario validates everything
// it reads and reports every problem at once.
func ExampleReadScenario() {
	const in = `{
	  "name": "q3",
	  "workloads": [
	    {"name": "tune", "kind": "fine-tuning", "gpus": 8, "workGPUHours": 96,
	     "deadline": "48h0m0s", "costOfDelayPerDay": "1500",
	     "requirements": {"models": {"H100 SXM": 1, "A100 80GB": 0.33}, "minIsolation": "dedicated"},
	     "interruption": {"tolerance": "checkpointed", "checkpointTime": "2m0s", "restartTime": "5m0s"}},
	    {"name": "chat", "kind": "inference", "gpus": 64, "horizon": "720h0m0s",
	     "demand": {"type": "diurnal", "mean": 0.6, "amplitude": 0.4, "peakHour": 14},
	     "interruption": {"tolerance": "stateless", "restartTime": "3m0s"}}
	  ]
	}`
	s, err := workload.ReadScenario(strings.NewReader(in))
	if err != nil {
		log.Fatal(err)
	}
	for _, w := range s.Workloads {
		f, ok := w.Requirements.SpeedFactor("A100 80GB")
		fmt.Printf("%s: %s, %d GPUs, service=%t, A100 speed %.3f (%t)\n", w.Name, w.Kind, w.GPUs, w.IsService(), f, ok)
	}

	_, err = workload.ReadScenario(strings.NewReader(`{"workloads": [{"name": "bad", "kind": "batch", "gpus": 0, "workGPUHours": -5}]}`))
	fmt.Println(err)
	// Output:
	// tune: fine-tuning, 8 GPUs, service=false, A100 speed 0.330 (true)
	// chat: inference, 64 GPUs, service=true, A100 speed 0.315 (true)
	// workload: workloads[0].gpus = 0: value out of range (must be > 0)
	// workload: workloads[0].workGPUHours = -5: negative value
}

// Discretize turns a weekly pattern into the time slices the placement
// solver consumes: here a development notebook used on weekdays 09:00–18:00,
// in 4-hour slices of a representative week.
func ExampleDiscretize() {
	dev := workload.Weekly{
		Weekday: workload.Steps{Cycle: 24 * time.Hour, Steps: []workload.Step{{Start: 0, Value: 0}, {Start: 9 * time.Hour, Value: 1}, {Start: 18 * time.Hour, Value: 0}}},
		Weekend: workload.Constant{Value: 0},
	}
	slices, err := workload.Discretize(dev, workload.Week, 42)
	if err != nil {
		log.Fatal(err)
	}
	for _, s := range slices[:6] {
		fmt.Printf("Mon %02.0f:00 +%.0fh demand %.2f\n", s.Start.Hours(), s.Hours(), s.Demand)
	}
	// Output:
	// Mon 00:00 +4h demand 0.00
	// Mon 04:00 +4h demand 0.00
	// Mon 08:00 +4h demand 0.75
	// Mon 12:00 +4h demand 1.00
	// Mon 16:00 +4h demand 0.50
	// Mon 20:00 +4h demand 0.00
}

// A service goes live in 90 days and then grows 5 % a month: a Window
// from the launch over the growing daily pattern. Its mean over the year
// counts nothing before the launch; its Cycle is still a day, so a planner
// may sample it a day's slices at a time.
func ExampleWindow() {
	chat, err := workload.NewDiurnal(0.6, 0.4, 14)
	if err != nil {
		log.Fatal(err)
	}
	grows := workload.Growth{Base: chat, RatePerYear: 0.796, Compound: true} // 1.05¹² ≈ 1.796
	launched := workload.Window{Curve: grows, From: 90 * workload.Day}
	year := 365 * workload.Day
	before, _ := workload.Mean(launched, 90*workload.Day)
	whole, _ := workload.Mean(launched, year)
	all, _ := workload.Mean(grows, year)
	fmt.Printf("mean over the first 90 days: %.2f\n", before)
	fmt.Printf("mean over the year: %.3f (%.3f without the launch date)\n", whole, all)
	fmt.Println("cycle:", workload.Cycle(launched))
	// Output:
	// mean over the first 90 days: 0.00
	// mean over the year: 0.657 (0.816 without the launch date)
	// cycle: 24h0m0s
}
