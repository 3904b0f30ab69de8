package placement

import (
	"context"
	"io"

	"github.com/gputco/gputco/placement/lp"
)

// Model returns the MILP that Solve optimises for p: every pool's model side
// by side (pools share no column or row, so its optimum is the sum of the
// pools' optima). Columns are named n_<offer> (nodes of committed capacity,
// integer), z_<offer> (per-offer cost paid, binary), y_<workload>_<offer>
// (placement with its one-off cost, binary) and x_<workload>_<offer>_<slice>
// (GPUs used in the slice; over time, in every slice of the slice's class,
// see the package comment) — or h_<workload>_<offer> (a job's GPU-hours on
// unlimited pay-as-you-go capacity), and v_<workload>_<offer> (a service's
// GPU-hours on unlimited pay-as-you-go capacity whose uses share another
// offer's x columns) — with workloads and offers by their index in the
// problem; rows demand_, work_, width_, widthh_ (a job's width over its
// GPU-hours), share_<workload>_<slice> (the shared uses from the slice on
// hold the v columns of the offers that exist from then), cap_, link_,
// peroffer_, used_, spot_ and budget (see
// the package comment; the model is reduced exactly as it says). Over time the slices are
// numbered through the stretches, a commitment is n_<offer>_<stretch> (the
// stretch it starts in; n_<offer>_<stretch>_<terms> for one that buys fewer
// whole terms than reach the next epoch start), a gang's run g_<workload>_<offer>_<GPUs>_<stretch>
// (binary; _<n> added for its n-th later start in the stretch), the most
// GPUs gangs hold at once gh_<offer>_<stretch>, and rows gang_ (one run per
// gang), ghold_ (the gangs holding their nodes at a moment) and hold_ (the
// stock shared by overlapping commitments) join them.
//
// Workloads in Plan.Unplaced are not in it, the gangs Solve leaves out
// because the gangs sharing their capacity cannot all fit included: Model
// finds them as Solve does, in every pool where some gang has no run that
// fits whatever the rest does (on capacity of unlimited stock), by the same
// two MILPs over the pool's model with a "not placed" column per gang (the
// fewest left out, then the least cost of leaving that many out; see the
// package comment), solved by the solver of the options. So the model's
// optimum is Plan.Total wherever Solve proves its plan optimal, and the
// model is infeasible exactly where Solve reports no plan (ErrInfeasible).
func Model(p Problem) (*lp.Problem, error) {
	in, err := prepare(&p)
	if err != nil {
		return nil, err
	}
	if err := in.leaveOutGangs(context.Background()); err != nil {
		return nil, err
	}
	return in.wholeModel()
}

// leaveOutGangs marks the gangs Solve leaves out of every pool of in
// (gangsLeftOut) as dropped.
func (in *instance) leaveOutGangs(ctx context.Context) error {
	for _, pl := range in.pools() {
		if !in.mayLeaveOut(pl) {
			continue
		}
		pm, err := in.model(pl)
		if err != nil {
			return err
		}
		st := &solveState{in: in}
		if _, err := st.gangsLeftOut(ctx, pl, pm); err != nil {
			return err
		}
	}
	return nil
}

// wholeModel is the model of every pool of in side by side, without the
// gangs left out.
func (in *instance) wholeModel() (*lp.Problem, error) {
	all := pool{}
	for i := range in.ws {
		if !in.ws[i].dropped {
			all.ws = append(all.ws, i)
		}
	}
	for k := range in.os {
		if len(in.os[k].pairs) > 0 {
			all.os = append(all.os, k)
		}
	}
	pm, err := in.namedModel(all, true)
	if err != nil {
		return nil, err
	}
	return pm.prob, nil
}

// WriteMPS writes Model(p) in free MPS format (lp.WriteMPS), for an
// external solver to check or solve.
func WriteMPS(w io.Writer, p Problem) error {
	m, err := Model(p)
	if err != nil {
		return err
	}
	return lp.WriteMPS(w, m)
}

// WriteLP writes Model(p) in CPLEX LP format (lp.WriteLP).
func WriteLP(w io.Writer, p Problem) error {
	m, err := Model(p)
	if err != nil {
		return err
	}
	return lp.WriteLP(w, m)
}
