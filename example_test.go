package gputco_test

import (
	"fmt"
	"log"
	"time"

	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/tco"
	"github.com/gputco/gputco/workload"
)

// The README's quick start: what a fine-tuning job really costs on AWS
// on-demand H100s, and how much of it the price list leaves out. The body
// between the markers is the README's snippet, word for word (a test checks).
func Example() {
	// quick start
	cat, err := provider.Default()
	if err != nil {
		log.Fatal(err)
	}
	offer, _ := cat.Offers.Find("aws-p5-h100-ondemand")
	job := workload.Workload{
		Name: "fine-tune", Kind: workload.FineTuning, GPUs: 8, WorkGPUHours: 96,
		Interruption: workload.Interruption{Tolerance: workload.Checkpointed,
			CheckpointTime: 2 * time.Minute, RestartTime: 5 * time.Minute},
		Data: workload.Data{DatasetGB: 200},
	}
	r, err := tco.Evaluate(job, offer, tco.Assumptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("total %s, of which hidden %s; done in %v\n",
		r.Total.StringFixed(2), r.Hidden.StringFixed(2), r.Finish.Round(time.Minute))
	// end of quick start

	// Output:
	// total 4402.25, of which hidden 3741.77; done in 46h30m0s
}
