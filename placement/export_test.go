package placement

import "github.com/gputco/gputco/placement/lp"

// ModelFull is Model without the exact reductions of reduce.go: every
// compatible pair and offer, every use a column per slice — the model of
// the package comment term by term, for tests that check the reductions.
func ModelFull(p Problem) (*lp.Problem, error) {
	in, err := prepareModel(&p, false)
	if err != nil {
		return nil, err
	}
	return in.wholeModel()
}

// SolveFixed is solveFixed: the LP p at bounds lo, up with the fixed
// columns substituted out.
var SolveFixed = solveFixed
