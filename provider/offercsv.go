package provider

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/gputco/gputco/internal/vocab"
	"github.com/shopspring/decimal"
)

// OfferImportOptions configures ImportOffers. The zero value is usable.
type OfferImportOptions struct {
	// Currency is the ISO 4217 code of the amounts; "" means "USD".
	Currency string
	// AsOf is the catalog's date; zero means the oldest source_as_of of the
	// imported offers (an error when no offer is dated). Only the calendar
	// date is kept, as midnight UTC.
	AsOf time.Time
	// KeepGoodRows makes ImportOffers return the offers of the good rows
	// together with the error when some rows are bad; otherwise a bad row
	// yields an empty catalog.
	KeepGoodRows bool
}

// offerDraft is an offer being read, with the parameters of every mode.
type offerDraft struct {
	o        Offer
	mode     string
	metered  Metered
	spot     Spot
	reserved Reserved
	owned    Owned
	credit   decimal.Decimal
	gpuSpec  bool // a GPU spec column is non-empty
}

// offerColumn is one column of the offers CSV.
type offerColumn struct {
	name  string
	modes string // space-separated modes that use it; "" for every mode
	field string // the field's path in the offer's JSON, for mapping validation errors
	set   func(d *offerDraft, p *rowProblems, col, v string)
}

// offerColumns returns the columns of the offers CSV, in documentation order.
func offerColumns() []offerColumn {
	str := func(f func(d *offerDraft) *string) func(*offerDraft, *rowProblems, string, string) {
		return func(d *offerDraft, _ *rowProblems, _, v string) { *f(d) = v }
	}
	flt := func(f func(d *offerDraft) *float64) func(*offerDraft, *rowProblems, string, string) {
		return func(d *offerDraft, p *rowProblems, c, v string) { *f(d) = p.float(c, v) }
	}
	dec := func(f func(d *offerDraft) *decimal.Decimal) func(*offerDraft, *rowProblems, string, string) {
		return func(d *offerDraft, p *rowProblems, c, v string) { *f(d) = p.money(c, v) }
	}
	dur := func(f func(d *offerDraft) *time.Duration) func(*offerDraft, *rowProblems, string, string) {
		return func(d *offerDraft, p *rowProblems, c, v string) { *f(d) = p.duration(c, v) }
	}
	num := func(f func(d *offerDraft) *int) func(*offerDraft, *rowProblems, string, string) {
		return func(d *offerDraft, p *rowProblems, c, v string) { *f(d) = p.integer(c, v) }
	}
	gpu := func(set func(*offerDraft, *rowProblems, string, string)) func(*offerDraft, *rowProblems, string, string) {
		return func(d *offerDraft, p *rowProblems, c, v string) {
			if v != "" {
				d.gpuSpec = true
			}
			set(d, p, c, v)
		}
	}
	enum := func(names []string, f func(d *offerDraft, v int)) func(*offerDraft, *rowProblems, string, string) {
		return func(d *offerDraft, p *rowProblems, c, v string) {
			if v == "" {
				return
			}
			for i, n := range names {
				if n == v {
					f(d, i)
					return
				}
			}
			p.add(c, v, reasonf(ErrUnknownName, "want one of %s", strings.Join(names, ", ")))
		}
	}
	const rated = "metered spot"
	return []offerColumn{
		{"id", "", "id", str(func(d *offerDraft) *string { return &d.o.ID })},
		{"provider", "", "provider", str(func(d *offerDraft) *string { return &d.o.Provider })},
		{"kind", "", "kind", enum(kindNames, func(d *offerDraft, v int) { d.o.Kind = Kind(v) })},
		{"region", "", "region", str(func(d *offerDraft) *string { return &d.o.Region })},
		{"jurisdiction", "", "jurisdiction", str(func(d *offerDraft) *string { return &d.o.Jurisdiction })},
		{"currency", "", "currency", str(func(d *offerDraft) *string { return &d.o.Currency })},
		{"gpu_model", "", "gpu.model", str(func(d *offerDraft) *string { return &d.o.GPU.Model })},
		{"gpu_memory_gib", "", "gpu.memoryGiB", gpu(flt(func(d *offerDraft) *float64 { return &d.o.GPU.MemoryGiB }))},
		{"gpu_bf16_tflops", "", "gpu.bf16TFLOPS", gpu(flt(func(d *offerDraft) *float64 { return &d.o.GPU.BF16TFLOPS }))},
		{"gpu_tdp_watts", "", "gpu.tdpWatts", gpu(flt(func(d *offerDraft) *float64 { return &d.o.GPU.TDPWatts }))},
		{"gpu_class", "", "gpu.class", gpu(enum(gpuClassNames, func(d *offerDraft, v int) { d.o.GPU.Class = GPUClass(v) }))},
		{"gpus_per_node", "", "gpusPerNode", num(func(d *offerDraft) *int { return &d.o.GPUsPerNode })},
		{"fabric", "", "interconnect.fabric", enum(vocab.FabricNames(), func(d *offerDraft, v int) { d.o.Interconnect.Fabric = Fabric(v) })},
		{"gbps_per_node", "", "interconnect.gbpsPerNode", flt(func(d *offerDraft) *float64 { return &d.o.Interconnect.GbpsPerNode })},
		{"nvlink", "", "interconnect.nvlink", func(d *offerDraft, p *rowProblems, c, v string) { d.o.Interconnect.NVLink = p.boolean(c, v) }},
		{"isolation", "", "isolation", enum(vocab.IsolationNames(), func(d *offerDraft, v int) { d.o.Isolation = Isolation(v) })},
		{"mode", "", "pricing", str(func(d *offerDraft) *string { return &d.mode })},
		{"rate_per_hour", rated, "pricing.ratePerHour", func(d *offerDraft, p *rowProblems, c, v string) {
			d.metered.RatePerHour = p.money(c, v)
			d.spot.RatePerHour = d.metered.RatePerHour
		}},
		{"increment", rated, "pricing.increment", func(d *offerDraft, p *rowProblems, c, v string) {
			d.metered.Increment = p.duration(c, v)
			d.spot.Increment = d.metered.Increment
		}},
		{"minimum", rated, "pricing.minimum", func(d *offerDraft, p *rowProblems, c, v string) {
			d.metered.Minimum = p.duration(c, v)
			d.spot.Minimum = d.metered.Minimum
		}},
		{"interruption_rate_per_hour", "spot", "pricing.interruptionRatePerHour", flt(func(d *offerDraft) *float64 { return &d.spot.InterruptionRatePerHour })},
		{"notice", "spot", "pricing.notice", dur(func(d *offerDraft) *time.Duration { return &d.spot.Notice })},
		{"term", "reserved", "pricing.term", dur(func(d *offerDraft) *time.Duration { return &d.reserved.Term })},
		{"upfront_per_node", "reserved", "pricing.upfrontPerNode", dec(func(d *offerDraft) *decimal.Decimal { return &d.reserved.UpfrontPerNode })},
		{"recurring_per_hour", "reserved", "pricing.recurringPerHour", dec(func(d *offerDraft) *decimal.Decimal { return &d.reserved.RecurringPerHour })},
		{"purchase_per_node", "owned", "pricing.purchasePerNode", dec(func(d *offerDraft) *decimal.Decimal { return &d.owned.PurchasePerNode })},
		{"useful_life_years", "owned", "pricing.usefulLifeYears", num(func(d *offerDraft) *int { return &d.owned.UsefulLifeYears })},
		{"salvage_per_node", "owned", "pricing.salvagePerNode", dec(func(d *offerDraft) *decimal.Decimal { return &d.owned.SalvagePerNode })},
		{"depreciation", "owned", "pricing.depreciation", enum(depreciationNames, func(d *offerDraft, v int) { d.owned.Method = Depreciation(v) })},
		{"idle_power_kw", "owned", "pricing.idlePowerKW", flt(func(d *offerDraft) *float64 { return &d.owned.IdlePowerKW })},
		{"max_power_kw", "owned", "pricing.maxPowerKW", flt(func(d *offerDraft) *float64 { return &d.owned.MaxPowerKW })},
		{"contracted_power_kw", "owned", "pricing.contractedPowerKW", flt(func(d *offerDraft) *float64 { return &d.owned.ContractedPowerKW })},
		{"pue", "owned", "pricing.pue", flt(func(d *offerDraft) *float64 { return &d.owned.PUE })},
		{"energy_per_kwh", "owned", "pricing.energyPerKWh", dec(func(d *offerDraft) *decimal.Decimal { return &d.owned.EnergyPerKWh })},
		{"colocation_per_kw_month", "owned", "pricing.colocationPerKWMonth", dec(func(d *offerDraft) *decimal.Decimal { return &d.owned.ColocationPerKWMonth })},
		{"maintenance_fraction_per_year", "owned", "pricing.maintenanceFractionPerYear", flt(func(d *offerDraft) *float64 { return &d.owned.MaintenanceFractionPerYear })},
		{"staff_fte_per_node", "owned", "pricing.staffFTEPerNode", flt(func(d *offerDraft) *float64 { return &d.owned.StaffFTEPerNode })},
		{"owned_staff_cost_per_year", "owned", "pricing.staffCostPerYear", dec(func(d *offerDraft) *decimal.Decimal { return &d.owned.StaffCostPerYear })},
		{"procurement_lead_time", "owned", "pricing.procurementLeadTime", dur(func(d *offerDraft) *time.Duration { return &d.owned.ProcurementLeadTime })},
		{"credit", "", "pricing.amount", dec(func(d *offerDraft) *decimal.Decimal { return &d.credit })},
		{"fill_probability", "", "availability.fillProbability", flt(func(d *offerDraft) *float64 { return &d.o.Availability.FillProbability })},
		{"max_nodes", "", "availability.maxNodes", num(func(d *offerDraft) *int { return &d.o.Availability.MaxNodes })},
		{"lead_time", "", "availability.leadTime", dur(func(d *offerDraft) *time.Duration { return &d.o.Availability.LeadTime })},
		{"setup_hours", "", "hidden.setupHours", flt(func(d *offerDraft) *float64 { return &d.o.Hidden.SetupHours })},
		{"egress_per_gb", "", "hidden.egressPerGB", dec(func(d *offerDraft) *decimal.Decimal { return &d.o.Hidden.EgressPerGB })},
		{"ingress_per_gb", "", "hidden.ingressPerGB", dec(func(d *offerDraft) *decimal.Decimal { return &d.o.Hidden.IngressPerGB })},
		{"storage_per_gb_month", "", "hidden.storagePerGBMonth", dec(func(d *offerDraft) *decimal.Decimal { return &d.o.Hidden.StoragePerGBMonth })},
		{"transfer_gbps", "", "hidden.transferGbps", flt(func(d *offerDraft) *float64 { return &d.o.Hidden.TransferGbps })},
		{"node_mtbf", "", "hidden.nodeMTBF", dur(func(d *offerDraft) *time.Duration { return &d.o.Hidden.NodeMTBF })},
		{"recovery_time", "", "hidden.recoveryTime", dur(func(d *offerDraft) *time.Duration { return &d.o.Hidden.RecoveryTime })},
		{"platform_fee_fraction", "", "hidden.platformFeeFraction", flt(func(d *offerDraft) *float64 { return &d.o.Hidden.PlatformFeeFraction })},
		{"staff_fte", "", "hidden.staffFTE", flt(func(d *offerDraft) *float64 { return &d.o.Hidden.StaffFTE })},
		{"staff_cost_per_year", "", "hidden.staffCostPerYear", dec(func(d *offerDraft) *decimal.Decimal { return &d.o.Hidden.StaffCostPerYear })},
		{"source_name", "", "source.name", str(func(d *offerDraft) *string { return &d.o.Source.Name })},
		{"source_url", "", "source.url", str(func(d *offerDraft) *string { return &d.o.Source.URL })},
		{"source_as_of", "", "source.asOf", func(d *offerDraft, p *rowProblems, c, v string) { d.o.Source.AsOf = p.date(c, v) }},
		{"source_estimate", "", "source.estimate", func(d *offerDraft, p *rowProblems, c, v string) { d.o.Source.Estimate = p.boolean(c, v) }},
		{"source_note", "", "source.note", str(func(d *offerDraft) *string { return &d.o.Source.Note })},
	}
}

// OfferColumns returns the header names ImportOffers accepts, in the order
// its documentation lists them. The caller may modify the slice.
func OfferColumns() []string {
	cs := offerColumns()
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.name
	}
	return out
}

// ImportOffers reads a CSV of the user's own offers, one offer per row, and
// returns them as a catalog in opts.Currency.
//
// The first record is the header; columns are found by name, in any order.
// Required: id, gpu_model, gpus_per_node, mode; every other column is
// optional, and an empty field means the field's zero value. An unknown
// header name is an error (it is most likely a typo). Columns, with the Offer
// field each sets:
//
//	id, provider, kind, region,            ID, Provider, Kind (general-cloud | gpu-platform | self-hosted), Region,
//	jurisdiction, currency                 Jurisdiction, Currency (ISO 4217; empty means the catalog's)
//	gpu_model, gpu_memory_gib,             GPU.Model, GPU.MemoryGiB (GiB),
//	gpu_bf16_tflops, gpu_tdp_watts,        GPU.BF16TFLOPS (dense TFLOPS), GPU.TDPWatts (W),
//	gpu_class                              GPU.Class (datacenter | consumer)
//	gpus_per_node                          GPUsPerNode (≥ 1)
//	fabric, gbps_per_node, nvlink          Interconnect (none | ethernet | roce | infiniband; Gbit/s; true | false)
//	isolation                              Isolation (shared | dedicated | physical)
//	mode                                   pricing mode: metered | spot | reserved | owned
//	rate_per_hour, increment, minimum      Metered and Spot: price per node-hour; billing increment; minimum charge
//	interruption_rate_per_hour, notice     Spot: interruptions per node-hour; notice before one
//	term, upfront_per_node,                Reserved: term length; paid per node per term;
//	recurring_per_hour                     paid per node-hour of the term
//	purchase_per_node, useful_life_years,  Owned: price per node; life in whole years;
//	salvage_per_node, depreciation,        value at end of life; straight-line | double-declining | sum-of-years-digits;
//	idle_power_kw, max_power_kw,           draw of an idle and a busy node (kW);
//	contracted_power_kw, pue,              power billed by colocation (kW); facility PUE;
//	energy_per_kwh,                        price of one kWh;
//	colocation_per_kw_month,               colocation price per kW-month;
//	maintenance_fraction_per_year,         maintenance per year as a fraction of the purchase;
//	staff_fte_per_node,                    operations staff per node (FTE);
//	owned_staff_cost_per_year,             loaded cost of one FTE per year;
//	procurement_lead_time                  time from order to service
//	credit                                 a one-time credit; non-zero wraps the mode in Credit
//	fill_probability, max_nodes, lead_time Availability ([0, 1]; 0 = no limit; provisioning time)
//	setup_hours, egress_per_gb,            Hidden costs: engineer hours; price per GB out;
//	ingress_per_gb, storage_per_gb_month,  per GB in; per GB-month stored;
//	transfer_gbps, node_mtbf,              data-transfer bandwidth (Gbit/s); node mean time between failures;
//	recovery_time, platform_fee_fraction,  time to recover a node; fee as a fraction of compute;
//	staff_fte, staff_cost_per_year         staff while in use (FTE); loaded cost of one FTE per year
//	source_name, source_url,               Source: citation, address,
//	source_as_of, source_estimate,         date (YYYY-MM-DD), whether the figures are estimates,
//	source_note                            free text
//
// Amounts are plain decimals ("2.49"); durations are Go durations ("90s",
// "720h") or a number of days, months or years ("30d", "1mo", "3y"; a month is
// 730 h, a year 8,760 h). A non-empty value in a column that the row's mode
// does not use is an error wrapping ErrNotApplicable. When gpu_model names a
// model of KnownAccelerators ("H100 SXM", "A100 80GB", ...) and every other
// gpu_ column is empty, the known specs are filled in.
//
// Problems are reported as ImportPriceList reports them: all at once, each a
// *RowError with its line, column and value wrapping a sentinel error (the
// offer's own Validate problems included, under the column of the field at
// fault), with the good rows kept only when opts.KeepGoodRows is set.
func ImportOffers(r io.Reader, opts OfferImportOptions) (Catalog, error) {
	var op problems
	currency := opts.Currency
	if currency == "" {
		currency = "USD"
	} else if !currencyCode.MatchString(currency) {
		op.add("OfferImportOptions.Currency", currency, errCurrencyCode)
	}
	if err := op.err(); err != nil {
		return Catalog{}, err
	}
	cols := offerColumns()
	byName := make(map[string]int, len(cols))
	byField := make(map[string]string, len(cols))
	for i, c := range cols {
		byName[c.name] = i
		byField[c.field] = c.name
	}
	known := make(map[string]GPU)
	for _, g := range KnownAccelerators() {
		known[g.Model] = g
	}

	cr := newCSVReader(r)
	header, _, errs, err := readHeader(cr)
	if err != nil || len(errs) > 0 {
		return Catalog{}, errors.Join(append(errs, err)...)
	}
	use := make([]int, len(header)) // column index per header field, -1 to skip
	have := make(map[string]bool, len(header))
	var hp problems
	for i, h := range header {
		use[i] = -1
		ci, ok := byName[h]
		switch {
		case !ok:
			hp.put(&RowError{Line: 1, Err: reasonf(ErrUnknownName, "column %s", echo(h))})
		case have[h]:
			hp.put(&RowError{Line: 1, Err: reasonf(ErrMalformed, "column %s appears twice", echo(h))})
		default:
			use[i] = ci
			have[h] = true
		}
	}
	for _, req := range []string{"id", "gpu_model", "gpus_per_node", "mode"} {
		if !have[req] {
			hp.put(&RowError{Line: 1, Err: reasonf(ErrMissingColumn, "%q", req)})
		}
	}
	if err := hp.err(); err != nil {
		return Catalog{}, err
	}

	c := Catalog{Currency: currency, AsOf: dateOnly(opts.AsOf)}
	seen := make(map[string]int)
	rows, err := readRows(cr, len(header), "offers", func(rec []string, line int) []error {
		rp := rowProblems{line: line}
		var d offerDraft
		for i, v := range rec {
			col := cols[use[i]]
			v = strings.TrimSpace(v)
			col.set(&d, &rp, col.name, v)
		}
		mode := d.mode
		switch mode {
		case "metered", "spot", "reserved", "owned":
			for i, v := range rec {
				col := cols[use[i]]
				if col.modes != "" && strings.TrimSpace(v) != "" && !strings.Contains(" "+col.modes+" ", " "+mode+" ") {
					rp.add(col.name, strings.TrimSpace(v), reasonf(ErrNotApplicable, "mode %s", mode))
				}
			}
		case "":
			rp.add("mode", "", ErrMissing)
		default:
			rp.add("mode", mode, reasonf(ErrUnknownMode, "want metered, spot, reserved or owned"))
		}
		if len(rp.errs) > 0 {
			return rp.errs
		}
		o := d.build(known)
		if first, dup := seen[o.ID]; dup && o.ID != "" {
			rp.add("id", o.ID, reasonf(ErrDuplicateID, "also on line %d", first))
		}
		if cur := o.Currency; cur != "" && cur != currency {
			if currencyCode.MatchString(cur) {
				rp.add("currency", cur, reasonf(ErrCurrencyMismatch, "the import is in %s", currency))
			} else {
				rp.add("currency", cur, reasonf(ErrMalformed, "want three upper-case letters, an ISO 4217 code such as %s", currency))
			}
		}
		if err := o.Validate(); err != nil {
			for _, e := range flatten(err) {
				var fe *FieldError
				if errors.As(e, &fe) {
					f := strings.Replace(fe.Field, "pricing.base.", "pricing.", 1)
					if name, ok := byField[f]; ok {
						rp.add(name, fmt.Sprint(fe.Value), fe.Err)
						continue
					}
				}
				rp.errs = append(rp.errs, &RowError{Line: line, Err: e})
			}
		}
		if len(rp.errs) > 0 {
			return rp.errs
		}
		seen[o.ID] = line
		c.Offers = append(c.Offers, o)
		return nil
	})
	if err != nil {
		return Catalog{}, err
	}
	if c.AsOf.IsZero() {
		for _, o := range c.Offers {
			if a := o.Source.AsOf; !a.IsZero() && (c.AsOf.IsZero() || a.Before(c.AsOf)) {
				c.AsOf = a
			}
		}
		if c.AsOf.IsZero() && rows.err() == nil {
			rows.put(&FieldError{Field: "OfferImportOptions.AsOf", Value: "", Err: ErrMissing})
		}
	}
	return importResult(c, rows, opts.KeepGoodRows)
}

// build assembles the offer of a draft whose mode is valid.
func (d *offerDraft) build(known map[string]GPU) Offer {
	o := d.o
	if g, ok := known[o.GPU.Model]; ok && !d.gpuSpec {
		o.GPU = g
	}
	var p Pricing
	switch d.mode {
	case "metered":
		p = d.metered
	case "spot":
		p = d.spot
	case "reserved":
		p = d.reserved
	case "owned":
		p = d.owned
	}
	if !d.credit.IsZero() {
		p = Credit{Base: p, Amount: d.credit}
	}
	o.Pricing = p
	return o
}
