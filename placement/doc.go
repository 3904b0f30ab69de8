// Package placement chooses the cheapest feasible mix of offers for a whole
// portfolio of workloads — which servers to own, how many nodes to reserve
// or rent monthly, what to burst on on-demand and what to put on spot — and
// proves how close to optimal the answer is.
//
// Every coefficient comes from tco's cost terms ([tco.Terms]), so a plan
// and [tco.Evaluate] agree on what an assignment costs: a workload alone on
// one offer costs in the plan exactly what Evaluate says (when its demand is
// whole nodes of the offer in every slice; see "Granularity").
//
// # Time
//
// The horizon H (Assumptions.Horizon, or the longest workload horizon) is
// represented by a period P (Options.Period, default a week) cut into T
// equal slices t of Δ_t hours (default hourly). The period repeats
// R = H/P times: a service's slice t weighs r_wt = R repetitions (in a
// partial last repetition, only its part before the horizon's end counts,
// as tco.Evaluate counts it); a finite job's weighs the times slice t
// occurs before its deadline and the horizon's end, r_jt = ⌊(min(D_j, H)
// − s_t − Δ_t)/P⌋ + 1 (0 when none does; where the deadline or the horizon
// cuts an occurrence, its part before it counts too), less
// those that start before the job is ready, A_j — the least
// over its offers of tco's Finish less its wall time: lead time and wait
// for stock, transfer in, setup (tco.Terms.Ready) —, so its work is placed
// before the deadline in any slice — it fills the valleys of committed
// capacity. (A_j is that of its first ready offer: exact when its offers
// are ready alike, as with one offer or a setup and a transfer that do not
// depend on the offer; a use of an offer ready later may start before it
// is.) Its use of a slice is a use in every repetition of the period, so
// on capacity it shares the others give up what it uses there for the
// whole horizon, not only to its deadline: a job due long before the
// horizon's end on a service's committed nodes is better planned over
// time, which cuts the stretch at its deadline (below). Services are
// sampled with workload.Discretize over P;
// capacity must cover each slice's peak, d_wt = GPUs_w · peak_wt (zero
// below a millionth of a GPU). A curve that does not repeat with P (a
// launch, steps, growth) is sampled in every repetition of P within the
// horizon (at most 400, evenly spaced beyond, and the last): peak_wt is the
// largest of slice t's peaks over them, so capacity meets the demand in
// every slice of every repetition, and the slice weighs r_wt = R ·
// mean_wt/peak_wt, mean_wt the mean of its peaks over them, so its use is
// priced at the curve's volume. Where such a curve has a cycle
// (workload.Cycle: a daily pattern that grows, or from a launch on, a
// workload.Window) that divides P into whole slices, the slices of one
// phase of the cycle (every day's 14:00 of a week) are made alike: each
// needs the largest of their peaks and weighs their mean means, so
// capacity still meets every slice's demand and the volume is the curve's,
// and the slices merge into one class (below) — a week of hourly slices
// becomes a day's where it was seven slightly different days (over time,
// in every stretch part, among the slices it holds whole when they span
// two cycles or more). With
// Assumptions.Horizon zero a service shorter than H is sampled only to its
// own Horizon H_w, as tco costs it alone: R_w = H_w/P in place of R (over
// time, stretches after H_w need nothing and the stretch it ends in is
// sampled to H_w, as a stretch ending there). With Assumptions.Horizon zero, too, a workload that tco
// alone costs over a horizon of its own (a service's shorter Horizon, a
// finite job's Horizon or, without one, the time it holds capacity) has
// its terms from tco at that horizon: on pay-as-you-go capacity all of
// them (billing increments rounded over its own time), on committed
// capacity its one-off lines (storage, egress, setup); Assignment.Alone
// and its runners-up are priced so too. Committed capacity with a term (a
// reservation, a monthly rental) that only services ending before H, and
// jobs due before it, can use is held for the whole terms that reach the
// last one's end, when those end before H: its fixed terms F_k are tco's
// for that span (six monthly terms of a rental for a 6-month service
// alone, as tco.Evaluate bills it). A curve that grows within the horizon
// holds all through it the capacity its end needs — it is better planned
// over time, with stretches short enough to follow it.
//
// # Model
//
// For every workload w and compatible offer k (pair (w, k): the
// requirements, isolation, jurisdiction and interruption tolerance of
// tco.Compatible; fit is the model's business), with terms F_k (Fixed per
// node held over the horizon), V_wk (Variable per node-hour of use), O_wk
// (OneOff), Q_k (PerOffer), g_k GPUs per node, σ_wk speed factor, e_wk fabric
// efficiency (1 for services):
//
//	n_k ∈ ℤ, 0 ≤ n_k ≤ S_k               nodes of committed capacity k (S_k its stock)
//	0 ≤ x_wkt ≤ u_wt                     GPUs of k used by w in slice t (u: a service's d_wt, a job's GPUs)
//	y_wk ∈ {0, 1}                        w placed on k (when O_wk or Q_k ≠ 0)
//	z_k ∈ {0, 1}                         k used at all (when Q_k ≠ 0)
//
//	minimise  Σ_k F_k·n_k + Σ_k Q_k·z_k + Σ_wk O_wk·y_wk + Σ_wkt c_wk·Δ_t·r_wt·x_wkt,
//	          c_wk = V_wk·ε_wk/g_k   (ε = e for a job, 1 for a service)
//
//	Σ_k x_wkt ≥ d_wt                                    demand of service w in every slice t
//	Σ_kt σ_wk·e_wk·Δ_t·r_wt·x_wkt ≥ W_w                 work of job w (reference GPU-hours)
//	Σ_k x_wkt ≤ GPUs_w                                  a job's width in slice t
//	Σ_w x_wkt ≤ g_k·n_k                                 committed capacity, shared by all its workloads
//	Σ_w x_wkt ≤ g_k·S_k                                 stock of pay-as-you-go k (when it can bind)
//	Σ_t Δ_t·r_wt·x_wkt ≤ M_wk·y_wk                      a use pays its one-off cost
//	y_wk ≤ z_k,   z_k ≤ Σ_w y_wk (when Q_k < 0)         per-offer cost (a credit only where used)
//	Σ_{k spot} Δ_t·r_wt·x_wkt·(σe for jobs) ≤ s·(demand) spot share s of each workload (optional)
//	objective ≤ B                                       budget (optional)
//
// with M_wk the largest use possible (the service's demand over the
// horizon; the job's work at this offer's rate). Stock S_k is the quoted
// maximum nodes, or with ExpectedStock that times the fill probability.
// [Model] returns this MILP and [WriteMPS] and [WriteLP] export it; it is
// exactly what [Solve] optimises.
//
// # Over time
//
// With Options.OverTime (or a non-zero Options.Epoch) the horizon splits
// into epochs of Options.Epoch (default a year; provider.Month or a quarter
// of three months also work; the last epoch may be partial), an epoch
// splits again at every lead time L_k (o.LeadTime(): provisioning, or an
// owned server's procurement) that falls inside it, again where the
// whole terms of a commitment started at one of these cuts end, and again
// one term after each of these cuts for a term shorter than the epoch's
// part it starts (a monthly rental in a yearly epoch; below), and last at
// the deadline D_j of every divisible job that can use committed capacity,
// or capacity of limited stock, that another workload can use too: there
// what the job held goes back to the others, who use it the rest of the
// stretch. These windows start no commitment and add none of fewer terms
// (they split the stretches between the other cuts), each at the deadline
// itself however near another cut — a stretch shorter than P weighs its
// part of one, below — so that a later deadline, an offer's arrival or
// another job never makes a job hold what it uses past its deadline. A
// service needs in each part of a stretch so split the peak over the whole
// stretch (in the part's phase of P), and its use of a part weighs the
// part's own volume: a window changes what the others may use, not what
// they need. (A slice that occurs in a stretch for less than a billionth of
// its peak's volume needs nothing there.) Each of these stretches
// σ = [a_σ, b_σ) has its own representative period, sampled from the
// demand curves over σ (d_wσt = GPUs_w · the largest, over the repetitions
// of P within σ, of the curve's peak in slice t, weighing R_σ · mean/peak as
// above; a curve that repeats with P once, at a_σ), so growth shows and is
// met to the stretch's end; its slices weigh
// R_σ = (b_σ − a_σ)/P, and a job's slice the times it occurs within σ
// before its deadline, as above with min(D_j, b_σ) − a_σ for min(D_j, H)
// (a stretch shorter than the period, as a bridge of days can be, weighs
// its fraction of one period; in it, and in the partial last repetition of
// P in a longer stretch, a service's slice counts only its part before
// b_σ — nothing for a slice that starts at or after b_σ, whose demand
// belongs to the next stretch, and the peak over that part for one that
// reaches past it; a job's occurrence that the deadline cuts counts its
// part before the deadline). The slices t of the model are the period's slices in every stretch
// (T·|σ| of them), and the equations above hold over them, with these
// changes:
//
//	x_wkt = 0 when a_σ(t) < L_k           no capacity before it exists
//	n_kc ∈ ℤ, 0 ≤ n_kc ≤ S_k              nodes of commitment c of committed k
//	Σ_w x_wkt ≤ g_k · Σ_{c ∋ σ(t)} n_kc   committed capacity: the commitments held in t's stretch
//	Σ_{c ∋ σ} n_kc ≤ S_k                  stock, where commitments overlap
//	objective: Σ_kc F_kc·n_kc in place of Σ_k F_k·n_k
//
// A commitment c of offer k starts at a stretch σ with a_σ ≥ L_k (capacity
// wanted at a_σ is ordered at a_σ − L_k, so lead time binds only from the
// plan's start). With a term τ_k (tco.Terms.Term: a reservation's term, a
// monthly rental's month, a long billing increment) it buys the m whole
// terms that reach the next epoch start u_σ after a_σ, m =
// ⌈(u_σ − a_σ)/τ_k⌉, and covers σ and the following stretches that end
// by e = a_σ + m·τ_k: a 1-year reservation covers its year, a 3-year one
// three, a monthly rental is renewed month by month to the next epoch and
// may change there. With Assumptions.Horizon zero, u_σ is the end of the
// last workload that can use k where that comes first and is before H
// (every such workload a service with a shorter Horizon of its own or a
// job due before it), when the whole terms to it reach past σ, and the
// stretches are cut where its whole terms from each anchor end, however
// near another cut: a 6-month service alone rents six months. A commitment may also buy fewer whole terms, i < m,
// where a stretch ends at a_σ + i·τ_k or less than max(P, τ_k/12) before
// it: it is then a column n_kσi of its own, covering the stretches to that
// end and priced F_kσi for the span held (i monthly terms of a rental).
// The stretches are cut for the terms of each offer k from anchors of its
// own — its arrival L_k and the epoch starts after it — so that another
// offer's arrival adds cuts and never takes one away: from an anchor a, (1)
// one term after it, a + τ_k, where some workload that can use k may want
// it for part of an epoch after a — a finite job before its deadline (its
// work may all go to one month, a gang runs for its wall time), or a
// service whose curve does not repeat with the period or whose own horizon
// ends before H, before its end; (2) for every arrival b of an offer
// before the next epoch start, at a + ⌊(b − a)/τ_k⌋·τ_k and a +
// ⌈(b − a)/τ_k⌉·τ_k, the last whole term before b and the first past it
// (a monthly rental bridging to owned hardware is held for the months
// before it arrives and the rest bridged otherwise, or for the month that
// reaches past it); (3) where the whole terms reaching the next epoch start
// end, a + ⌈(u − a)/τ_k⌉·τ_k, when inside the horizon. A cut less than
// max(P, τ_k/12) from an epoch start, an arrival, H or a cut kept before
// it is left out; a commitment that ends there covers the stretches to the
// cut before and pays a tail it does not use. So with yearly epochs a
// monthly rental from an epoch start is held one month or renewed to the
// epoch's end, and from one month after it for the months that reach the
// next epoch start, or dropped:
//
//	n_kσ1 ∈ ℤ, 0 ≤ n_kσ1 ≤ S_k      one term from a_σ, covering [a_σ, a_σ + τ_k)
//	n_kσ′ ∈ ℤ, a_σ′ = a_σ + τ_k     the m − 1 terms from there to the next epoch start
//	F_kσ1 = F_k(τ_k), F_kσ′ = F_k((m − 1)·τ_k), F_kσ = F_k(m·τ_k)   (tco's fixed terms per node for the span)
//
// and they enter the capacity rows above as every commitment does (Σ_{c ∋
// σ(t)} n_kc): x nodes in the first month and y after are n_kσ = min(x, y)
// with n_kσ1 = x − min(x, y) or n_kσ′ = y − min(x, y). A plan that holds a
// month's rental and its renewal to the end of the commitment from the
// start, which costs their sum, reports the nodes both hold as that one
// commitment. A month's rental for a one-month gang or a service of part
// of the first month costs what tco.Evaluate says for the workload alone
// on that month; a rental for months 2 to 4 of a yearly epoch is still
// held to the epoch's end (monthly epochs let it change every month, at
// the cost of twelve stretches a year). The cuts add a few stretches of T
// slices per anchor and term (none where the terms fit the epochs and no
// arrival falls inside one); a commitment started at another cut, or at a
// bridge shorter than its term (a monthly rental at an arrival a week
// before the next), covers the stretches within its terms and pays the
// rest unused: it is never counted beyond what it pays for.
// Commitment.Held's End is the end of what it pays for (past the horizon's
// end for a term that outlives it).
// Without a term (owned hardware) it covers the stretches to the horizon's
// end. F_kc is tco.Terms.FixedPerNode of the offer prepared (with the first
// workload that uses it, at a constant demand, its mean over the stretches
// held: fixed terms are per node held, and a constant is priced in closed
// form) for the span held, b_last − a_σ: whole terms of a
// reservation even past the horizon's end, and for owned hardware the
// purchase, the running costs and the resale value (or book value) at the
// age it has at the horizon's end credited back. Variable, one-off and
// per-offer terms are those of the whole horizon. An offer whose lead time reaches the
// horizon's end is excluded (ErrLeadTime); a service whose demand before
// the lead times of its offers exceeds what exists then is unplaced
// (ErrLeadTime). The plan reports each stretch in Plan.Epochs (commitments
// started with their order and arrival, nodes held, uses by tier, GPUs per
// slice by tier and offer) and each commitment in Commitment.Held. The
// present value discounts a commitment's lines from its start, a use's
// variable lines stretch by stretch where the use happens (each stretch's
// part spread over its own months; a gang's over its run) and a use's
// one-off lines over the horizon, as before. The cost of delay (CostOfDelayPerDay)
// that tco charges for a lead time is left out, since the plan bridges it:
// a service keeps only the part for the expected wait for stock beyond the
// lead time, a job none (its work is placed by its deadline). With one epoch
// covering the horizon, no lead times and no cut one term after its start
// (no term shorter than the horizon of an offer a job, a gang or a service
// of uneven months can use) the model is exactly the one above.
//
// Renewal and exit follow from the same columns: at the end of a term the
// plan may start the offer's next commitment (renew, for as many nodes as
// the next stretches need), another offer's (switch) or none (drop); an
// owned server is held to the horizon's end, past its depreciation life at
// its salvage value with its running costs on (tco's Owned). A workload's
// one-off lines (setup, the transfer in, the exit — its data moved out at
// the end) are paid once per offer it is placed on, so a workload that
// moves between offers across epochs pays leaving one and entering the
// other; the variable lines of its use are those of the whole horizon. A
// service's monthly egress (the data it sends out per month) is not one of
// them: it is a variable line of the egress tco prices for the service
// alone on the offer per node-hour of that use, so a service split over
// offers pays it once, each use its share.
//
// # Gang jobs
//
// Over time, a finite job that tolerates no interruption, or that gives a
// range of gang sizes (workload.Workload.GangSizes), is a gang: its GPUs
// run together on exactly one offer. Its runs ρ = (k, G, τ) are a size G on
// a compatible offer k starting at a moment τ. tco prices the job at size G
// on k (tco.Prepare with GPUs = G): its wall time W (interruptions,
// checkpoints, a slower fabric), transfer and setup give its duration d =
// Finish − L_k, its finish f_ρ = τ + d, and its cost c = V·NodeHours + O;
// the run exists when f_ρ ≤ min(D_j, H) and its ⌈G/g_k⌉ nodes fit the
// stock. The sizes are every whole-node size of the range within the
// offer's stock (the job's GPUs without a range; beyond 64 sizes, 64 evenly
// spaced with both ends and its GPUs), less those another size dominates —
// no more nodes for no longer at no more cost; on unlimited pay-as-you-go
// capacity, where only the cost matters, the cheapest size that finishes
// by the deadline alone (the smallest of equal costs). The moments τ ≥ L_k are every stretch start and
// every multiple of a grid step, max(epoch/12, P, H/96) (a month of a
// yearly epoch); on unlimited pay-as-you-go only the first (waiting never
// helps there). On an offer only one gang runs on, of the runs meeting the
// same stretches only those no other holds fewer nodes at less cost are
// kept (exact: nothing else tells them apart); on one gangs share, a gang
// has at most 160 runs (sizes times moments, whatever its deadline) —
// beyond, 8 evenly spaced sizes, then every m-th moment of the grid with
// the stretch starts. A run holds h_ρ = ⌈G/g_k⌉·g_k GPUs over [τ, f_ρ):
// gangs take turns on the same nodes within a stretch. Nodes do not change within a
// stretch, and the other workloads' use is a representative period, so in
// each stretch σ the gangs on k hold at most a column P_kσ, the most they
// hold at once — at least what the runs holding their nodes hold at every
// moment a run starts (or σ does), the only moments that sum can rise —
// in every slice of σ beside the others' use. Where one moment meets every
// run of σ, the runs enter the slices' rows themselves instead (as when
// every gang starts at the stretch's start). This is exact for gangs
// among themselves (among plans whose runs start at those moments); what
// it gives up is a run shorter than the period that misses a service's
// busiest slice, divisible jobs using a gang's GPUs while it does not run,
// and a service giving up committed nodes to a gang for the run alone (it
// gives them up for the whole stretch, since its use is the same all
// through it). Shorter epochs give a finer grid.
//
//	v_jρ ∈ {0, 1},   Σ_ρ v_jρ = 1                         one run of gang j
//	cost c_jρ = V_jkG · NodeHours_jkG + O_jkG               its own lines at size G (tco)
//	Σ_{ρ on k: τ_ρ ≤ m < f_ρ} h_ρ·v_jρ ≤ P_kσ               at every moment m of σ a run starts at
//	Σ_w x_wkt + P_kσ(t) ≤ g_k·(Σ_{c ∋ σ(t)} n_kc)           on committed k
//	Σ_w x_wkt + P_kσ(t) ≤ g_k·S_k                           on limited pay-as-you-go k
//	Σ_{ρ on k} v_jρ ≤ z_k (when Q_k ≠ 0),   z_k ≤ … + Σ_{ρ on k} v_jρ (credits)
//	Σ_{ρ on spot} W_j·v_jρ ≤ s·W_j                            spot share
//
// A gang without a run is in Plan.Unplaced with ErrDeadline (its earliest
// finish and where; ErrHorizon when the horizon's end, not a deadline, is
// the limit) or ErrStock. When the gangs of a pool cannot all fit
// together (the pool is infeasible, and feasible with some gangs left out;
// a budget aside, which stays an error), the fewest gangs are left out —
// and of the ways to leave that many out the one of least cost — found by
// the pool's MILP with a "not placed" column in each gang's row; those are
// in Plan.Unplaced with ErrStock and the pool is planned without them.
// [Model] leaves the same gangs out (it runs the same two MILPs, in a pool
// where some gang has no run on capacity of unlimited stock: elsewhere
// every gang fits whatever the rest does), so the exported model is the
// one Solve plans.
// Without planning over time gangs are unplaced with ErrGang, as before.
// Assignment.Gang reports the run: offer, size, nodes, start and finish;
// its use in the stretches (Epoch.Uses, Epoch.Slices) is its GPU-hours in
// each (its GPUs times its wall time, in proportion to the part of the
// run in it) spread over the stretch's slices.
//
// # Solving
//
// Workloads that share no offer form independent pools (a budget couples
// all). A pool of one service without spot share, budget or per-offer
// costs is a single-curve pool: the load-duration curve makes it a
// transportation problem that the merit-order programme of
// placement/internal/merit solves exactly with whole nodes (its bound: the
// programme's optimum plus the least one-off cost; accepted when within
// Options.Gap, else the pool goes to the general path). The screening curve
// is its special case without binding stock. Other pools are MILPs: the LP
// relaxation is solved by placement/lp's dual simplex (the proven bound and
// the duals); its integers rounded up and the rest re-optimised give a
// first plan, and when that is not within Options.Gap a dive gives another
// (the fractional integer nearest a whole value bounded in its rounding
// direction, the relaxation re-solved warm, until it is integral; the
// opposite bound where one is infeasible); the better is kept when it is
// within Options.Gap. Otherwise the root is probed (with the built-in
// solver): the fractional integer that costs most to round up is bounded
// down and up in turn and the relaxation re-solved warm; the lesser of the
// two is a proven bound, and a side that is infeasible or costs at least
// the plan holds no better plan, so the search keeps to the other side (a
// node count whose last partial node is worth keeping: leaving it out costs
// more than the gap) and the next probe starts from its relaxation, until
// a probe neither cuts a side off nor closes 5 % of the gap (at most 8, in
// the relaxation's iterations). Then the plan descends: each integer it
// holds above the relaxation (a placement the relaxation uses in part, a
// partial node) is tried one lower with the others as they are, by the LP
// with the integers fixed, the dearest first, keeping every change that
// costs less (in four times the relaxation's iterations). If the gap is
// still above Options.Gap, the MILP goes to lp.Solve's branch-and-bound
// with the probe's column bounds, warm-started at the probed relaxation's
// basis with the plan as its incumbent (lp.Options.Start), or with
// Options.Solver = CBC to an external cbc on the exported model, and the
// better plan and the better bound are kept. The first plan is
// what a limit or a cancellation returns when the MILP solver found none.
// Before the relaxation, a greedy plan is built without the LP (every
// workload on the capacity it can use, cheapest per GPU-hour first; nodes
// of a commitment bought where the capacity free cannot serve a service's
// slice or a job's work; a gang on its cheapest run on pay-as-you-go
// capacity of unlimited stock; a workload that finds no capacity first in
// a new order), checked against every row: it is the incumbent when it
// beats the rounded relaxation, and what a limit returns when the
// relaxation is not solved in time (Stats.FirstPlan says when the plan had
// one), with a bound that needs no LP: the capacity rows of committed
// offers priced at each commitment's fixed cost spread over the hours it
// covers (no node is worth more than it costs), each placement's link row
// at its one-off cost (every use pays its share of it, as in the
// relaxation), each demand, work and gang row met by its cheapest
// columns. A model of 100 000 columns or more with a first plan takes
// its coarse model's bound instead (below), those prices and a price of
// every other row of the form Σ a·x ≤ u (stock, a job's width, a spot
// share, the budget) raised by projected subgradient steps towards the
// first plan's cost (at most three hundred), the best bound reported as it
// rises: the even prices charge a node's cost to every hour, where the
// relaxation charges the hours when services peak together. Such a model
// then solves the relaxation of its coarse model — the slices of each
// stretch that its jobs weigh alike, sorted by the services' total
// demand, merged up to seven at a time at their mean demand and least
// repetitions, which every plan of the model averages into at no higher
// cost — for a lower bound known early, and a second greedy plan holds
// that relaxation's commitments rounded up. A wide model (200 000 columns
// or more, twelve times as many as rows: a service's use of every
// compatible offer in every slice class, few of them used) has its
// relaxation, and its coarse model's, sifted: the
// simplex solves the LP restricted to the columns its greedy plan uses
// (and every integer column), the whole model's columns are priced with
// the restriction's row duals, and those of negative reduced cost join
// it, the most negative first, until none is left — the restricted
// optimum is then the relaxation's, and the simplex of the whole model
// starts from it and certifies it — or until the restriction would hold
// half the model's columns, when the whole model is solved from scratch.
// The coarse model's sifting stops sooner, once the Lagrangian bound of
// the duals (valid whatever the duals; raised each round by a few passes
// of coordinate ascent over the rows' duals, the best round's kept and
// reported as progress) is within 1e-4 of the restricted optimum: that
// bound and the restriction's point stand for its relaxation's, and when
// the time limit stops sifting, the bound reached is the pool's. The
// better greedy plan is then polished: an LP over the pairs it uses (and
// those of the other greedy plan and of the coarse relaxation) with its
// gang runs fixed chooses the commitments and uses together, its integers
// are rounded up (commitments that would then share more than their stock
// rounded back down, the uses solved again), and the result is kept when
// it is cheaper. None of these changes the optimum: a plan is only an
// incumbent, a relaxation only a bound.
// Rounding up never breaks a constraint but a budget; of a gang's runs the
// largest alone is chosen (with the capacity it needs, or by a dive when
// the chosen runs do not fit together). A plan's LP with its
// integers fixed is solved without the uses they rule out (pairs not
// placed, offers without nodes), from scratch.
//
// The model is reduced exactly before it is solved or exported (the
// optimum is the same; the full model is what the equations above say
// term by term). A pay-as-you-go pair that another pair of the same
// workload dominates (unlimited, no dearer per unit of work, no dearer
// one-off, no per-offer cost, not interruptible where it matters) is left
// out: moving its use to the dominating pair never costs more. Without
// planning over time, a committed offer that another dominates (unlimited
// stock, nodes of as many GPUs, a fixed cost per node no higher, no
// per-offer cost, and for every workload that can use it the same
// workload's pair no dearer per unit of work, no dearer one-off, at least as
// fast) is left out with its pairs: its nodes and uses move to the other.
// A job's use of an unlimited pay-as-you-go offer is one column h_wk of
// GPU-hours, Σ_t Δ_t·r_wt·x_wkt: it meets no capacity row and every other
// row takes it in proportion, so only the width ties it to the slices, and
// a row for each slice f such an offer arrives in keeps those that exist
// from f within what the job's other uses leave of its width from f on,
//
//	Σ_{k agg: from_k ≥ f} h_wk + Σ_{t ≥ f} Δ_t·r_wt·Σ_{k other} x_wkt ≤ GPUs_w·Σ_{t ≥ f} Δ_t·r_wt;
//
// the plan spreads it back over the slices in proportion to that room,
// the offers that exist latest first.
// A service's uses of unlimited pay-as-you-go offers (not interruptible
// under a spot share) meet no row but its demand rows and their one-off
// links, so they share one column per slice, x_w1t of the group's
// representative (of the offers that exist earliest, the cheapest), and
// every other offer k of the group has a column v_wk of GPU-hours,
// Σ_t Δ_t·r_wt·x_wkt, costing c_wk − c_w1 and in its own link; the
// representative's link takes Σ_t Δ_t·r_wt·x_w1t − Σ_k v_wk, and for each
// slice f an offer of the group arrives in,
//
//	Σ_{k: from_k ≥ f} v_wk ≤ Σ_{t ≥ f} Δ_t·r_wt·x_w1t;
//
// the plan lifts the shared use back, the latest offers taking their
// GPU-hours first from the slices they exist in, in proportion.
// The slices of a stretch (of the period, without planning over time)
// that the model cannot tell apart — the same length and, for every
// workload of the pool but its gangs and the jobs whose every use is an
// aggregated column h_wk (which meet no row of a slice), the same
// repetitions r_wt and (a service) the same demand — form a class: the
// model is symmetric under any permutation of a class (node counts and
// gang holdings are the stretch's), so averaging an optimum over it keeps
// every row and the cost, and the model keeps the class's first slice
// alone, its uses' costs, work, hours and spot shares counted once per
// slice of the class; the plan gives every slice of the class that
// slice's uses. A pool of jobs and gangs has a few classes per stretch
// (the repetitions change only where a deadline falls) where it had a
// stretch's every slice; diurnal services over a week of hourly slices
// repeat every day, so a day's slices merge with those of every other day
// that no job's deadline tells apart.
// Over time, a commitment c of an offer that others make at no more cost
// has no column n_kc: one that covers every stretch c covers and, where
// the offer has a stock, starts with c and pays for no stretch c does not;
// or two that chain to it, one from c's start paying for no tail, the next
// to c's last stretch with c's tail (a quarter of monthly rentals is a
// month and the two after). Its nodes are theirs, at no more cost in any
// row, and the search no longer explores every way to buy the same nodes.
//
// Marginal values are read from the plan's fixed LP — the model with every
// integer column at the plan's value and the uses the plan rules out at
// zero, restricted to the columns left — as the change of its optimum by
// one unit: one more GPU of a service's peak (every demand row up by
// peak_t, the bounds of its uses and its spot share with it), one more
// reference GPU-hour of a job's work, one more node of stock (the stock
// rows and the use bounds up by g_k; for committed capacity, one more node
// of a commitment the stock held back, held). A change is priced at once
// when a plan for it built from the fixed LP's optimum (each extra need on
// the cheapest use that takes it within every row) costs what the fixed
// LP's duals prove it costs at least; otherwise by a re-solve of the fixed
// LP warm-started from its basis, within a budget of a few of its solves;
// one more GPU that fits nowhere the plan places the workload goes on the
// cheapest one more of its offers, that placement's one-off paid.
// In a pool solved by the merit-order programme (one service, no
// coupling) the fixed LP is, in every slice, the merit order of the
// capacity the plan holds — the offers it places (or may place at no
// one-off cost), each with its nodes' GPUs, its stock or without limit —
// and the same values are walks up that ladder, with no LP: one more GPU
// of peak costs the price of the next GPUs up each slice's ladder; one more
// node of stock saves, in each slice whose demand reaches past the GPUs
// priced at most the offer's, the dearest GPUs it replaces less its own
// price (less the node's fixed cost for committed capacity held at its
// stock). Building and solving the pool's LP for them would cost several
// times the programme itself.
// The relaxation's duals are the fallback: the saving of one more node of
// stock (minus the reduced cost of n_k at its bound; the stock rows' duals
// times g_k; over time, of every commitment's n_kc and the hold_ rows), and
// the cost of one more GPU of a service's peak (Σ_t demand dual_t ·
// peak_t) — rates, which at a degenerate optimum (demand that exactly
// fills a capped offer) may be either end of their interval.
//
// # Granularity and what is not modelled
//
// A short commitment — pay-as-you-go billed in increments or with a
// minimum longer than tco.CommitmentThreshold but shorter than the horizon,
// which tco.Terms prices as a fraction of a node held (Own.Nodes) — is
// modelled as pay-as-you-go: each of its fixed lines becomes a variable line
// of amount·Own.Nodes/Own.NodeHours, the workload's own billed node-time per
// node-hour of use (its billing rounding as a stretch of its own, as on
// hourly billing). A workload alone on it costs exactly what Evaluate bills;
// workloads sharing it do not share their billing increments.
//
// Pay-as-you-go use is divisible by GPU (workloads may share a rented
// node); tco bills a lone service whole nodes per slice, so the two agree
// exactly when each slice needs whole nodes. A rate per busy node-hour (an
// owned server's energy above idle) applies to a service's use as it is:
// every GPU of its demand is busy. A service needs its GPUs on
// any GPU model (tco's convention); a job's work runs at its speed factor.
// Divisible jobs (checkpointed or stateless) may run narrower than their
// gang and on several offers at once. Finite jobs that tolerate no
// interruption are gang jobs — one offer, a window before the deadline —
// which are reported in Plan.Unplaced with ErrGang. Without planning over
// time, commitments last the whole horizon (or, with Assumptions.Horizon
// zero, a reservation or monthly rental to the end of the last service or
// deadline of a job that can use it, when that comes first: above) and
// lead times are only priced
// by tco (an offer whose lead time reaches the horizon's end is excluded,
// ErrLeadTime, as over time: its capacity never exists within the
// horizon); a credit counts at what it takes off the first workload's bill on
// the offer, and the stretch of billed time by preemptions, failures and a
// slower fabric, which tco.Terms folds into the variable compute line, is
// split out of a use's compute line into hidden lines (preemption, recovery,
// inefficiency) in the proportions tco.Evaluate reports at the workload's
// own use — the line's total is unchanged, so a plan's hidden subtotal shows
// it as Evaluate does.
package placement
