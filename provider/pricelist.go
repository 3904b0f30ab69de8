package provider

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/shopspring/decimal"
)

// DefaultSpotInterruptionRatePerHour is the interruption rate that
// ImportPriceList gives spot offers when ImportOptions does not set one: 10 %
// per month (0.10/730 per node-hour), the middle of the 5–20 % monthly
// frequencies that AWS's Spot Instance Advisor shows for GPU instances. It is
// an estimate, not a published figure, and offers that use it are marked
// Source.Estimate.
const DefaultSpotInterruptionRatePerHour = 0.10 / 730

// ImportOptions configures ImportPriceList. The zero value of every field but
// Provider and AsOf means the documented default.
type ImportOptions struct {
	// Provider names the seller, e.g. "AWS"; required. It selects the default
	// billing (see DefaultBilling) and spot notice, and, lower-cased, starts
	// every offer ID.
	Provider string
	// Kind is the provider's kind; the zero value is GeneralCloud.
	Kind Kind
	// Isolation is the tenant isolation of every offer; the zero value is
	// Shared, the weakest and therefore safest assumption when unknown.
	Isolation Isolation
	// Currency is the ISO 4217 code of the prices; "" means "USD".
	Currency string
	// AsOf is the date of the price list; required. Only its calendar date
	// (in its own location) is kept, as midnight UTC, the form catalog JSON
	// stores.
	AsOf time.Time
	// SourceName cites the price list; "" means Provider + " price list".
	SourceName string
	// SourceURL is where the price list was read, if public.
	SourceURL string
	// Increment and Minimum override the provider's billing increment and
	// minimum charge (see DefaultBilling); zero keeps the default. When only
	// Increment is set and the default minimum is shorter than it, the
	// minimum becomes one increment.
	Increment, Minimum time.Duration
	// Jurisdiction maps a region to a jurisdiction; nil means
	// JurisdictionFromRegion.
	Jurisdiction func(region string) string
	// SpotInterruptionRatePerHour is the interruption rate of spot offers, in
	// interruptions per node-hour; zero means
	// DefaultSpotInterruptionRatePerHour, and then the spot offers are marked
	// as estimates.
	SpotInterruptionRatePerHour float64
	// SpotNotice is the warning before a spot interruption; zero means the
	// provider's default: 2 minutes for AWS, 30 seconds for GCP, none otherwise.
	SpotNotice time.Duration
	// FillProbability is the availability given to every offer, in [0, 1];
	// zero means 1 (a price list does not say what is out of stock).
	FillProbability float64
	// Accelerators maps catalog accelerator names to GPU specs; nil means
	// KnownAccelerators(). Names match exactly or, failing that, ignoring case.
	Accelerators map[string]GPU
	// KeepGoodRows makes ImportPriceList return the offers of the good rows
	// together with the error when some rows are bad; otherwise a bad row
	// yields an empty catalog.
	KeepGoodRows bool
}

// DefaultBilling returns the billing rules (increment and minimum, at a zero
// rate) of a provider, from reference-data §1, and whether the provider is
// known. Names match ignoring case:
//   - "AWS", "GCP" (also "Google"): per second with a 60-second minimum;
//   - "Lambda", "CoreWeave", "Scaleway": per minute;
//   - "RunPod", "Vast" (also "Vast.ai"): per second with no minimum beyond one second.
//
// For any other provider it returns Hourly(0) and false: whole hours are the
// coarsest common rule, so an unknown provider is never billed too little.
func DefaultBilling(provider string) (Metered, bool) {
	switch strings.ToLower(strings.TrimSpace(provider)) {
	case "aws", "gcp", "google":
		return PerSecond(decimal.Zero, time.Minute), true
	case "lambda", "coreweave", "scaleway":
		return PerMinute(decimal.Zero), true
	case "runpod", "vast", "vast.ai":
		return PerSecond(decimal.Zero, 0), true
	}
	return Hourly(decimal.Zero), false
}

func defaultSpotNotice(provider string) time.Duration {
	switch strings.ToLower(strings.TrimSpace(provider)) {
	case "aws":
		return 2 * time.Minute
	case "gcp", "google":
		return 30 * time.Second
	}
	return 0
}

// JurisdictionFromRegion maps a region name to a jurisdiction by its prefix:
// "us-…" (AWS us-east-1, GCP us-central1) is "US"; "eu-…" (AWS) and
// "europe-…" (GCP) are "EU"; anything else is "" (unknown). It does not know
// Azure's region names ("eastus") nor finer jurisdictions ("DE"); pass
// ImportOptions.Jurisdiction for those.
func JurisdictionFromRegion(region string) string {
	r := strings.ToLower(region)
	switch {
	case strings.HasPrefix(r, "us-"):
		return "US"
	case strings.HasPrefix(r, "eu-"), strings.HasPrefix(r, "europe-"):
		return "EU"
	}
	return ""
}

// KnownAccelerators returns a fresh map from the accelerator names of open
// price catalogs (the SkyPilot catalog's AcceleratorName) to GPU specs with
// the model names the project uses. Memory is in GiB, BF16TFLOPS is dense
// (no sparsity) tensor throughput — tensor FP16 for the V100 and T4, which
// have no BF16 — and TDPWatts is the board power of the SXM part where one
// exists. Figures are the vendors' datasheets. "H100" is the SXM part (AWS
// p5, GCP A3, Lambda 8×); a catalog that lists PCIe cards under "H100" needs
// its own table. The caller may modify the map.
func KnownAccelerators() map[string]GPU {
	h100 := GPU{Model: "H100 SXM", MemoryGiB: 80, BF16TFLOPS: 989, TDPWatts: 700, Class: Datacenter}
	a100 := GPU{Model: "A100 40GB", MemoryGiB: 40, BF16TFLOPS: 312, TDPWatts: 400, Class: Datacenter}
	v100 := GPU{Model: "V100", MemoryGiB: 16, BF16TFLOPS: 125, TDPWatts: 300, Class: Datacenter}
	return map[string]GPU{
		"H100":      h100,
		"H100-SXM":  h100,
		"H100-80GB": h100,
		"H100-MEGA": h100,
		"H100-PCIE": {Model: "H100 PCIe", MemoryGiB: 80, BF16TFLOPS: 756, TDPWatts: 350, Class: Datacenter},
		"H200":      {Model: "H200", MemoryGiB: 141, BF16TFLOPS: 989, TDPWatts: 700, Class: Datacenter},
		"B200":      {Model: "B200", MemoryGiB: 180, BF16TFLOPS: 2250, TDPWatts: 1000, Class: Datacenter},
		"A100":      a100,
		"A100-40GB": a100,
		"A100-80GB": {Model: "A100 80GB", MemoryGiB: 80, BF16TFLOPS: 312, TDPWatts: 400, Class: Datacenter},
		"V100":      v100,
		"V100-32GB": {Model: "V100 32GB", MemoryGiB: 32, BF16TFLOPS: 125, TDPWatts: 300, Class: Datacenter},
		"L40S":      {Model: "L40S", MemoryGiB: 48, BF16TFLOPS: 362, TDPWatts: 350, Class: Datacenter},
		"L4":        {Model: "L4", MemoryGiB: 24, BF16TFLOPS: 121, TDPWatts: 72, Class: Datacenter},
		"A10":       {Model: "A10", MemoryGiB: 24, BF16TFLOPS: 125, TDPWatts: 150, Class: Datacenter},
		"T4":        {Model: "T4", MemoryGiB: 16, BF16TFLOPS: 65, TDPWatts: 70, Class: Datacenter},
		"RTX4090":   {Model: "RTX 4090", MemoryGiB: 24, BF16TFLOPS: 165, TDPWatts: 450, Class: Consumer},
	}
}

// Columns of the per-instance price-list layout.
const (
	colInstance = "InstanceType"
	colAccel    = "AcceleratorName"
	colCount    = "AcceleratorCount"
	colPrice    = "Price"
	colSpot     = "SpotPrice"
	colRegion   = "Region"
	colZone     = "AvailabilityZone"
)

// maxGPUsPerNode bounds the GPU count of one row.
const maxGPUsPerNode = 1 << 16

// ImportPriceList reads a price list in the open per-instance CSV layout of
// the SkyPilot catalog (catalogs/v8/<cloud>/vms.csv) and returns it as a
// catalog in opts.Currency dated opts.AsOf.
//
// The first record is the header; columns are found by name, in any order,
// and other columns are ignored. Required: InstanceType, AcceleratorName,
// AcceleratorCount, Price, Region; optional: SpotPrice, AvailabilityZone.
// vCPUs and MemoryGiB are not used: an Offer describes GPUs only. Prices are
// per instance (node) and hour, plain decimals such as "55.04"; exponents are
// refused.
//
// Each row is one instance type in one zone (or region, without a zone). A
// row with no AcceleratorName is a CPU-only instance and is skipped silently.
// Otherwise it yields a Metered offer at Price, when Price is non-empty, with
// ID "<provider>/<InstanceType>/<zone or region>" (provider lower-cased), and a
// Spot offer at SpotPrice, when SpotPrice is non-empty, with the same ID
// followed by "/spot". Billing follows DefaultBilling(opts.Provider) unless
// opts overrides it; the GPU comes from opts.Accelerators; AcceleratorCount
// must be a whole number ≥ 1 (fractional GPUs are an error).
//
// Problems are reported all at once, joined with errors.Join: each bad row as
// a *RowError with its line, column and value, wrapping ErrMalformed,
// ErrMissing, ErrNegative, ErrOutOfRange, ErrUnknownAccelerator,
// ErrDuplicateID or ErrFieldCount; missing header columns wrap
// ErrMissingColumn. Bad options are *FieldError values and return an empty
// catalog. When rows are bad, the result holds the offers of the good rows if
// opts.KeepGoodRows is set, and is empty otherwise. A read error of r stops
// the import and is returned wrapped.
func ImportPriceList(r io.Reader, opts ImportOptions) (Catalog, error) {
	o, err := opts.resolve()
	if err != nil {
		return Catalog{}, err
	}
	cr := newCSVReader(r)
	header, cols, errs, err := readHeader(cr)
	if err != nil || len(errs) > 0 {
		return Catalog{}, errors.Join(append(errs, err)...)
	}
	for _, name := range []string{colInstance, colAccel, colCount, colPrice, colRegion} {
		if _, ok := cols[name]; !ok {
			errs = append(errs, &RowError{Line: 1, Err: reasonf(ErrMissingColumn, "%q", name)})
		}
	}
	if len(errs) > 0 {
		return Catalog{}, errors.Join(errs...)
	}
	get := func(rec []string, name string) string {
		i, ok := cols[name]
		if !ok || i >= len(rec) {
			return ""
		}
		return strings.TrimSpace(rec[i])
	}
	c := Catalog{Currency: o.currency, AsOf: o.asOf}
	seen := make(map[string]int)
	var chunks offerChunks
	for {
		rec, line, err := nextRecord(cr, len(header))
		if err == io.EOF {
			break
		}
		if err != nil {
			var re *RowError
			if errors.As(err, &re) {
				errs = append(errs, err)
				continue
			}
			return Catalog{}, fmt.Errorf("provider: reading price list: %w", err)
		}
		name := get(rec, colAccel)
		if name == "" {
			continue // CPU-only instance
		}
		rp := rowProblems{line: line}
		gpu, ok := o.accel(name)
		if !ok {
			rp.add(colAccel, name, ErrUnknownAccelerator)
		}
		count := rp.gpuCount(colCount, get(rec, colCount))
		instance := get(rec, colInstance)
		if instance == "" {
			rp.add(colInstance, "", ErrMissing)
		}
		region := get(rec, colRegion)
		if region == "" {
			rp.add(colRegion, "", ErrMissing)
		}
		priceText, spotText := get(rec, colPrice), get(rec, colSpot)
		price := rp.money(colPrice, priceText)
		spot := rp.money(colSpot, spotText)
		if priceText == "" && spotText == "" {
			rp.add(colPrice, "", ErrMissing)
		}
		if len(rp.errs) > 0 {
			errs = append(errs, rp.errs...)
			continue
		}
		where := get(rec, colZone)
		if where == "" {
			where = region
		}
		id := o.idPrefix + instance + "/" + where
		base := Offer{
			Provider: opts.Provider, Kind: opts.Kind, Region: region, Jurisdiction: o.jurisdiction(region),
			GPU: gpu, GPUsPerNode: count, Isolation: opts.Isolation,
			Availability: Availability{FillProbability: o.fill},
			Source:       Source{Name: o.sourceName, URL: opts.SourceURL, AsOf: o.asOf, Note: o.note},
		}
		var pair [2]Offer
		offers := pair[:0]
		if priceText != "" {
			m := base
			m.ID = id
			m.Pricing = Metered{RatePerHour: price, Increment: o.billing.Increment, Minimum: o.billing.Minimum}
			offers = append(offers, m)
		}
		if spotText != "" {
			s := base
			s.ID = id + "/spot"
			s.Pricing = Spot{RatePerHour: spot, Increment: o.billing.Increment, Minimum: o.billing.Minimum,
				InterruptionRatePerHour: o.spotRate, Notice: o.notice}
			if o.spotEstimate {
				s.Source.Estimate = true
				s.Source.Note = joinNote(s.Source.Note, "spot interruption rate is the package's default estimate of 10 % per month")
			}
			offers = append(offers, s)
		}
		for _, of := range offers {
			if first, dup := seen[of.ID]; dup {
				rp.errs = append(rp.errs, &RowError{Line: line, Err: reasonf(ErrDuplicateID, "%q also on line %d", of.ID, first)})
				break
			}
			if err := of.Validate(); err != nil {
				rp.errs = append(rp.errs, &RowError{Line: line, Err: err})
			}
		}
		if len(rp.errs) > 0 {
			errs = append(errs, rp.errs...)
			continue
		}
		for _, of := range offers {
			seen[of.ID] = line
		}
		chunks = chunks.add(offers)
	}
	c.Offers = chunks.offers()
	if len(errs) > 0 {
		if opts.KeepGoodRows {
			return c, errors.Join(errs...)
		}
		return Catalog{}, errors.Join(errs...)
	}
	return c, nil
}

// offerChunks collects offers in fixed-size chunks, so that a long price list
// is not copied over and over as one slice grows.
type offerChunks [][]Offer

const offerChunkSize = 1024

func (cs offerChunks) add(os []Offer) offerChunks {
	for _, o := range os {
		if len(cs) == 0 || len(cs[len(cs)-1]) == offerChunkSize {
			cs = append(cs, make([]Offer, 0, offerChunkSize))
		}
		cs[len(cs)-1] = append(cs[len(cs)-1], o)
	}
	return cs
}

// offers returns the offers in order, or nil when there are none.
func (cs offerChunks) offers() Offers {
	n := 0
	for _, c := range cs {
		n += len(c)
	}
	if n == 0 {
		return nil
	}
	out := make(Offers, 0, n)
	for _, c := range cs {
		out = append(out, c...)
	}
	return out
}

// importConfig is ImportOptions with defaults resolved.
type importConfig struct {
	currency     string
	asOf         time.Time
	idPrefix     string
	sourceName   string
	note         string
	billing      Metered
	notice       time.Duration
	spotRate     float64
	spotEstimate bool
	fill         float64
	jurisdiction func(string) string
	accels       map[string]GPU
	accelsFold   map[string]GPU
}

func (c *importConfig) accel(name string) (GPU, bool) {
	if g, ok := c.accels[name]; ok {
		return g, true
	}
	g, ok := c.accelsFold[strings.ToUpper(name)]
	return g, ok
}

func (opts ImportOptions) resolve() (*importConfig, error) {
	var p problems
	c := &importConfig{currency: opts.Currency, jurisdiction: opts.Jurisdiction, fill: opts.FillProbability}
	if strings.TrimSpace(opts.Provider) == "" {
		p.add("ImportOptions.Provider", opts.Provider, ErrMissing)
	}
	if c.currency == "" {
		c.currency = "USD"
	} else if !currencyCode.MatchString(c.currency) {
		p.add("ImportOptions.Currency", c.currency, ErrMalformed)
	}
	if opts.AsOf.IsZero() {
		p.add("ImportOptions.AsOf", "", ErrMissing)
	}
	c.asOf = dateOnly(opts.AsOf)
	if !enumValid(kindNames, opts.Kind) {
		p.add("ImportOptions.Kind", int(opts.Kind), ErrUnknownName)
	}
	if !enumValid(isolationNames, opts.Isolation) {
		p.add("ImportOptions.Isolation", int(opts.Isolation), ErrUnknownName)
	}
	p.duration("ImportOptions.Increment", opts.Increment)
	p.duration("ImportOptions.Minimum", opts.Minimum)
	p.duration("ImportOptions.SpotNotice", opts.SpotNotice)
	p.quantity("ImportOptions.SpotInterruptionRatePerHour", opts.SpotInterruptionRatePerHour, 0, math.MaxFloat64)
	p.quantity("ImportOptions.FillProbability", opts.FillProbability, 0, 1)
	billing, known := DefaultBilling(opts.Provider)
	if opts.Increment > 0 {
		billing.Increment = opts.Increment
		if billing.Minimum < billing.Increment {
			billing.Minimum = 0
		}
	}
	if opts.Minimum > 0 {
		billing.Minimum = opts.Minimum
	}
	if billing.Minimum > 0 && billing.Increment > 0 && billing.Minimum < billing.Increment {
		p.add("ImportOptions.Minimum", billing.Minimum, ErrMinimumBelowIncrement)
	}
	c.billing = billing
	if !known && opts.Increment == 0 {
		c.note = "billing assumed hourly: provider not in the billing table"
	}
	if err := p.err(); err != nil {
		return nil, err
	}
	c.idPrefix = strings.ToLower(strings.TrimSpace(opts.Provider)) + "/"
	c.sourceName = opts.SourceName
	if c.sourceName == "" {
		c.sourceName = strings.TrimSpace(opts.Provider) + " price list"
	}
	c.notice = opts.SpotNotice
	if c.notice == 0 {
		c.notice = defaultSpotNotice(opts.Provider)
	}
	c.spotRate = opts.SpotInterruptionRatePerHour
	if c.spotRate == 0 {
		c.spotRate, c.spotEstimate = DefaultSpotInterruptionRatePerHour, true
	}
	if c.fill == 0 {
		c.fill = 1
	}
	if c.jurisdiction == nil {
		c.jurisdiction = JurisdictionFromRegion
	}
	c.accels = opts.Accelerators
	if c.accels == nil {
		c.accels = KnownAccelerators()
	}
	c.accelsFold = make(map[string]GPU, len(c.accels))
	for k, g := range c.accels {
		c.accelsFold[strings.ToUpper(k)] = g
	}
	return c, nil
}

// dateOnly returns the calendar date of t, in t's location, as midnight UTC.
func dateOnly(t time.Time) time.Time {
	if t.IsZero() {
		return time.Time{}
	}
	y, m, d := t.Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

func joinNote(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// CSV plumbing shared by the importers.

func newCSVReader(r io.Reader) *csv.Reader {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	return cr
}

// readHeader reads the header record and returns it (trimmed, without a
// byte-order mark) with the index of each name's first occurrence.
func readHeader(cr *csv.Reader) ([]string, map[string]int, []error, error) {
	rec, _, err := nextRecord(cr, -1)
	if err == io.EOF {
		return nil, nil, []error{&RowError{Line: 1, Err: reasonf(ErrMissingColumn, "no header")}}, nil
	}
	if err != nil {
		var re *RowError
		if errors.As(err, &re) {
			return nil, nil, []error{err}, nil
		}
		return nil, nil, nil, fmt.Errorf("provider: reading header: %w", err)
	}
	header := make([]string, len(rec))
	cols := make(map[string]int, len(rec))
	for i, h := range rec {
		if i == 0 {
			h = strings.TrimPrefix(h, "\ufeff")
		}
		h = strings.TrimSpace(h)
		header[i] = h
		if _, dup := cols[h]; !dup {
			cols[h] = i
		}
	}
	return header, cols, nil, nil
}

// nextRecord reads one record and the line it starts on. A CSV syntax error,
// or a record whose field count differs from width (≥ 0; a negative width
// accepts any), is returned as a *RowError; other errors (io.EOF, read
// errors) as they are.
func nextRecord(cr *csv.Reader, width int) ([]string, int, error) {
	rec, err := cr.Read()
	if err != nil {
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			return nil, pe.StartLine, &RowError{Line: pe.StartLine, Err: reasonf(ErrMalformed, "%v", pe.Err)}
		}
		return nil, 0, err
	}
	line, _ := cr.FieldPos(0)
	if width >= 0 && len(rec) != width {
		return nil, line, &RowError{Line: line, Err: reasonf(ErrFieldCount, "%d fields, header has %d", len(rec), width)}
	}
	return rec, line, nil
}

// rowProblems collects the problems of one CSV row.
type rowProblems struct {
	line int
	errs []error
}

func (p *rowProblems) add(column, value string, err error) {
	p.errs = append(p.errs, &RowError{Line: p.line, Column: column, Value: value, Err: err})
}

// maxNumberLen bounds the length of a number in a CSV field: MaxNumberLen,
// the bound of money amounts in JSON.
const maxNumberLen = MaxNumberLen

// parseDecimal parses a plain decimal: an optional sign, digits and an
// optional fraction. Exponents are refused, so that no input can make an
// amount of astronomic size.
func parseDecimal(s string) (decimal.Decimal, error) {
	if len(s) > maxNumberLen {
		return decimal.Zero, reasonf(ErrOutOfRange, "more than %d characters", maxNumberLen)
	}
	digits, dot := 0, false
	for i := 0; i < len(s); i++ {
		switch ch := s[i]; {
		case ch >= '0' && ch <= '9':
			digits++
		case ch == '.' && !dot:
			dot = true
		case (ch == '-' || ch == '+') && i == 0:
		default:
			return decimal.Zero, reasonf(ErrMalformed, "not a plain decimal number")
		}
	}
	if digits == 0 {
		return decimal.Zero, reasonf(ErrMalformed, "not a plain decimal number")
	}
	d, err := decimal.NewFromString(s)
	if err != nil {
		return decimal.Zero, reasonf(ErrMalformed, "%v", err)
	}
	return d, nil
}

// money parses a non-negative amount; "" is zero.
func (p *rowProblems) money(column, s string) decimal.Decimal {
	if s == "" {
		return decimal.Zero
	}
	d, err := parseDecimal(s)
	if err != nil {
		p.add(column, s, err)
		return decimal.Zero
	}
	if d.IsNegative() {
		p.add(column, s, ErrNegative)
		return decimal.Zero
	}
	return d
}

// float parses a finite number; "" is zero.
func (p *rowProblems) float(column, s string) float64 {
	if s == "" {
		return 0
	}
	if len(s) > maxNumberLen {
		p.add(column, s, reasonf(ErrOutOfRange, "more than %d characters", maxNumberLen))
		return 0
	}
	f, err := strconv.ParseFloat(s, 64)
	switch {
	case err != nil && !errors.Is(err, strconv.ErrRange):
		p.add(column, s, reasonf(ErrMalformed, "not a number"))
		return 0
	case err != nil || !finite(f):
		p.add(column, s, ErrNotFinite)
		return 0
	}
	return f
}

// gpuCount parses a whole number of GPUs in 1..maxGPUsPerNode, written as an
// integer or as a float with no fraction ("8.0").
func (p *rowProblems) gpuCount(column, s string) int {
	if s == "" {
		p.add(column, "", ErrMissing)
		return 0
	}
	n := len(p.errs)
	f := p.float(column, s)
	if len(p.errs) > n {
		return 0
	}
	if f < 1 || f > maxGPUsPerNode || f != math.Trunc(f) {
		p.add(column, s, reasonf(ErrOutOfRange, "want a whole number of GPUs from 1 to %d", maxGPUsPerNode))
		return 0
	}
	return int(f)
}

// integer parses an int; "" is zero.
func (p *rowProblems) integer(column, s string) int {
	if s == "" {
		return 0
	}
	v, err := strconv.Atoi(s)
	if err != nil {
		p.add(column, s, reasonf(ErrMalformed, "not an integer"))
		return 0
	}
	return v
}

// boolean parses true/false (and 1/0, t/f); "" is false.
func (p *rowProblems) boolean(column, s string) bool {
	if s == "" {
		return false
	}
	v, err := strconv.ParseBool(s)
	if err != nil {
		p.add(column, s, reasonf(ErrMalformed, "not true or false"))
		return false
	}
	return v
}

// date parses YYYY-MM-DD; "" is the zero time.
func (p *rowProblems) date(column, s string) time.Time {
	if s == "" {
		return time.Time{}
	}
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		p.add(column, s, reasonf(ErrMalformed, "not a date YYYY-MM-DD"))
		return time.Time{}
	}
	return t
}

// durationUnits are the units ParseDuration lacks, accepted by the offers CSV.
var durationUnits = []struct {
	suffix string
	unit   time.Duration
}{{"mo", Month}, {"y", Year}, {"d", 24 * time.Hour}}

// duration parses a Go duration ("90s", "720h") or a number of days ("30d"),
// months ("1mo", 730 h each) or years ("3y", 8,760 h each); "" is zero.
func (p *rowProblems) duration(column, s string) time.Duration {
	if s == "" {
		return 0
	}
	if d, err := time.ParseDuration(s); err == nil {
		return d
	}
	for _, u := range durationUnits {
		num, ok := strings.CutSuffix(s, u.suffix)
		if !ok || num == "" || len(num) > maxNumberLen {
			continue
		}
		f, err := strconv.ParseFloat(num, 64)
		if err != nil || strings.ContainsAny(num, "eEinIN_xXpP") {
			break
		}
		v := f * float64(u.unit)
		if !finite(v) || math.Abs(v) >= math.MaxInt64 {
			p.add(column, s, reasonf(ErrOutOfRange, "duration too long"))
			return 0
		}
		return time.Duration(v)
	}
	p.add(column, s, reasonf(ErrMalformed, `not a duration such as "90s", "720h", "30d", "1mo" or "3y"`))
	return 0
}

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
	field string // Offer field path, for mapping validation errors
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
		{"id", "", "ID", str(func(d *offerDraft) *string { return &d.o.ID })},
		{"provider", "", "Provider", str(func(d *offerDraft) *string { return &d.o.Provider })},
		{"kind", "", "Kind", enum(kindNames, func(d *offerDraft, v int) { d.o.Kind = Kind(v) })},
		{"region", "", "Region", str(func(d *offerDraft) *string { return &d.o.Region })},
		{"jurisdiction", "", "Jurisdiction", str(func(d *offerDraft) *string { return &d.o.Jurisdiction })},
		{"currency", "", "Currency", str(func(d *offerDraft) *string { return &d.o.Currency })},
		{"gpu_model", "", "GPU.Model", str(func(d *offerDraft) *string { return &d.o.GPU.Model })},
		{"gpu_memory_gib", "", "GPU.MemoryGiB", gpu(flt(func(d *offerDraft) *float64 { return &d.o.GPU.MemoryGiB }))},
		{"gpu_bf16_tflops", "", "GPU.BF16TFLOPS", gpu(flt(func(d *offerDraft) *float64 { return &d.o.GPU.BF16TFLOPS }))},
		{"gpu_tdp_watts", "", "GPU.TDPWatts", gpu(flt(func(d *offerDraft) *float64 { return &d.o.GPU.TDPWatts }))},
		{"gpu_class", "", "GPU.Class", gpu(enum(gpuClassNames, func(d *offerDraft, v int) { d.o.GPU.Class = GPUClass(v) }))},
		{"gpus_per_node", "", "GPUsPerNode", num(func(d *offerDraft) *int { return &d.o.GPUsPerNode })},
		{"fabric", "", "Interconnect.Fabric", enum(fabricNames, func(d *offerDraft, v int) { d.o.Interconnect.Fabric = Fabric(v) })},
		{"gbps_per_node", "", "Interconnect.GbpsPerNode", flt(func(d *offerDraft) *float64 { return &d.o.Interconnect.GbpsPerNode })},
		{"nvlink", "", "Interconnect.NVLink", func(d *offerDraft, p *rowProblems, c, v string) { d.o.Interconnect.NVLink = p.boolean(c, v) }},
		{"isolation", "", "Isolation", enum(isolationNames, func(d *offerDraft, v int) { d.o.Isolation = Isolation(v) })},
		{"mode", "", "Pricing", str(func(d *offerDraft) *string { return &d.mode })},
		{"rate_per_hour", rated, "Pricing.RatePerHour", func(d *offerDraft, p *rowProblems, c, v string) {
			d.metered.RatePerHour = p.money(c, v)
			d.spot.RatePerHour = d.metered.RatePerHour
		}},
		{"increment", rated, "Pricing.Increment", func(d *offerDraft, p *rowProblems, c, v string) {
			d.metered.Increment = p.duration(c, v)
			d.spot.Increment = d.metered.Increment
		}},
		{"minimum", rated, "Pricing.Minimum", func(d *offerDraft, p *rowProblems, c, v string) {
			d.metered.Minimum = p.duration(c, v)
			d.spot.Minimum = d.metered.Minimum
		}},
		{"interruption_rate_per_hour", "spot", "Pricing.InterruptionRatePerHour", flt(func(d *offerDraft) *float64 { return &d.spot.InterruptionRatePerHour })},
		{"notice", "spot", "Pricing.Notice", dur(func(d *offerDraft) *time.Duration { return &d.spot.Notice })},
		{"term", "reserved", "Pricing.Term", dur(func(d *offerDraft) *time.Duration { return &d.reserved.Term })},
		{"upfront_per_node", "reserved", "Pricing.UpfrontPerNode", dec(func(d *offerDraft) *decimal.Decimal { return &d.reserved.UpfrontPerNode })},
		{"recurring_per_hour", "reserved", "Pricing.RecurringPerHour", dec(func(d *offerDraft) *decimal.Decimal { return &d.reserved.RecurringPerHour })},
		{"purchase_per_node", "owned", "Pricing.PurchasePerNode", dec(func(d *offerDraft) *decimal.Decimal { return &d.owned.PurchasePerNode })},
		{"useful_life_years", "owned", "Pricing.UsefulLifeYears", num(func(d *offerDraft) *int { return &d.owned.UsefulLifeYears })},
		{"salvage_per_node", "owned", "Pricing.SalvagePerNode", dec(func(d *offerDraft) *decimal.Decimal { return &d.owned.SalvagePerNode })},
		{"depreciation", "owned", "Pricing.Method", enum(depreciationNames, func(d *offerDraft, v int) { d.owned.Method = Depreciation(v) })},
		{"idle_power_kw", "owned", "Pricing.IdlePowerKW", flt(func(d *offerDraft) *float64 { return &d.owned.IdlePowerKW })},
		{"max_power_kw", "owned", "Pricing.MaxPowerKW", flt(func(d *offerDraft) *float64 { return &d.owned.MaxPowerKW })},
		{"contracted_power_kw", "owned", "Pricing.ContractedPowerKW", flt(func(d *offerDraft) *float64 { return &d.owned.ContractedPowerKW })},
		{"pue", "owned", "Pricing.PUE", flt(func(d *offerDraft) *float64 { return &d.owned.PUE })},
		{"energy_per_kwh", "owned", "Pricing.EnergyPerKWh", dec(func(d *offerDraft) *decimal.Decimal { return &d.owned.EnergyPerKWh })},
		{"colocation_per_kw_month", "owned", "Pricing.ColocationPerKWMonth", dec(func(d *offerDraft) *decimal.Decimal { return &d.owned.ColocationPerKWMonth })},
		{"maintenance_fraction_per_year", "owned", "Pricing.MaintenanceFractionPerYear", flt(func(d *offerDraft) *float64 { return &d.owned.MaintenanceFractionPerYear })},
		{"staff_fte_per_node", "owned", "Pricing.StaffFTEPerNode", flt(func(d *offerDraft) *float64 { return &d.owned.StaffFTEPerNode })},
		{"owned_staff_cost_per_year", "owned", "Pricing.StaffCostPerYear", dec(func(d *offerDraft) *decimal.Decimal { return &d.owned.StaffCostPerYear })},
		{"procurement_lead_time", "owned", "Pricing.ProcurementLeadTime", dur(func(d *offerDraft) *time.Duration { return &d.owned.ProcurementLeadTime })},
		{"credit", "", "Pricing.Amount", dec(func(d *offerDraft) *decimal.Decimal { return &d.credit })},
		{"fill_probability", "", "Availability.FillProbability", flt(func(d *offerDraft) *float64 { return &d.o.Availability.FillProbability })},
		{"max_nodes", "", "Availability.MaxNodes", num(func(d *offerDraft) *int { return &d.o.Availability.MaxNodes })},
		{"lead_time", "", "Availability.LeadTime", dur(func(d *offerDraft) *time.Duration { return &d.o.Availability.LeadTime })},
		{"setup_hours", "", "Hidden.SetupHours", flt(func(d *offerDraft) *float64 { return &d.o.Hidden.SetupHours })},
		{"egress_per_gb", "", "Hidden.EgressPerGB", dec(func(d *offerDraft) *decimal.Decimal { return &d.o.Hidden.EgressPerGB })},
		{"ingress_per_gb", "", "Hidden.IngressPerGB", dec(func(d *offerDraft) *decimal.Decimal { return &d.o.Hidden.IngressPerGB })},
		{"storage_per_gb_month", "", "Hidden.StoragePerGBMonth", dec(func(d *offerDraft) *decimal.Decimal { return &d.o.Hidden.StoragePerGBMonth })},
		{"transfer_gbps", "", "Hidden.TransferGbps", flt(func(d *offerDraft) *float64 { return &d.o.Hidden.TransferGbps })},
		{"node_mtbf", "", "Hidden.NodeMTBF", dur(func(d *offerDraft) *time.Duration { return &d.o.Hidden.NodeMTBF })},
		{"recovery_time", "", "Hidden.RecoveryTime", dur(func(d *offerDraft) *time.Duration { return &d.o.Hidden.RecoveryTime })},
		{"platform_fee_fraction", "", "Hidden.PlatformFeeFraction", flt(func(d *offerDraft) *float64 { return &d.o.Hidden.PlatformFeeFraction })},
		{"staff_fte", "", "Hidden.StaffFTE", flt(func(d *offerDraft) *float64 { return &d.o.Hidden.StaffFTE })},
		{"staff_cost_per_year", "", "Hidden.StaffCostPerYear", dec(func(d *offerDraft) *decimal.Decimal { return &d.o.Hidden.StaffCostPerYear })},
		{"source_name", "", "Source.Name", str(func(d *offerDraft) *string { return &d.o.Source.Name })},
		{"source_url", "", "Source.URL", str(func(d *offerDraft) *string { return &d.o.Source.URL })},
		{"source_as_of", "", "Source.AsOf", func(d *offerDraft, p *rowProblems, c, v string) { d.o.Source.AsOf = p.date(c, v) }},
		{"source_estimate", "", "Source.Estimate", func(d *offerDraft, p *rowProblems, c, v string) { d.o.Source.Estimate = p.boolean(c, v) }},
		{"source_note", "", "Source.Note", str(func(d *offerDraft) *string { return &d.o.Source.Note })},
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
		op.add("OfferImportOptions.Currency", currency, ErrMalformed)
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
	for i, h := range header {
		use[i] = -1
		ci, ok := byName[h]
		switch {
		case !ok:
			errs = append(errs, &RowError{Line: 1, Err: reasonf(ErrUnknownName, "column %q", h)})
		case have[h]:
			errs = append(errs, &RowError{Line: 1, Err: reasonf(ErrMalformed, "column %q appears twice", h)})
		default:
			use[i] = ci
			have[h] = true
		}
	}
	for _, req := range []string{"id", "gpu_model", "gpus_per_node", "mode"} {
		if !have[req] {
			errs = append(errs, &RowError{Line: 1, Err: reasonf(ErrMissingColumn, "%q", req)})
		}
	}
	if len(errs) > 0 {
		return Catalog{}, errors.Join(errs...)
	}

	c := Catalog{Currency: currency, AsOf: dateOnly(opts.AsOf)}
	seen := make(map[string]int)
	for {
		rec, line, err := nextRecord(cr, len(header))
		if err == io.EOF {
			break
		}
		if err != nil {
			var re *RowError
			if errors.As(err, &re) {
				errs = append(errs, err)
				continue
			}
			return Catalog{}, fmt.Errorf("provider: reading offers: %w", err)
		}
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
			errs = append(errs, rp.errs...)
			continue
		}
		o := d.build(known)
		if first, dup := seen[o.ID]; dup && o.ID != "" {
			rp.add("id", o.ID, reasonf(ErrDuplicateID, "also on line %d", first))
		}
		if cur := o.Currency; cur != "" && cur != currency {
			if currencyCode.MatchString(cur) {
				rp.add("currency", cur, reasonf(ErrCurrencyMismatch, "the import is in %s", currency))
			} else {
				rp.add("currency", cur, reasonf(ErrMalformed, "want an ISO 4217 code such as %s", currency))
			}
		}
		if err := o.Validate(); err != nil {
			for _, e := range flatten(err) {
				var fe *FieldError
				if errors.As(e, &fe) {
					f := strings.Replace(fe.Field, "Pricing.Base.", "Pricing.", 1)
					if name, ok := byField[f]; ok {
						rp.add(name, fmt.Sprint(fe.Value), fe.Err)
						continue
					}
				}
				rp.errs = append(rp.errs, &RowError{Line: line, Err: e})
			}
		}
		if len(rp.errs) > 0 {
			errs = append(errs, rp.errs...)
			continue
		}
		seen[o.ID] = line
		c.Offers = append(c.Offers, o)
	}
	if c.AsOf.IsZero() {
		for _, o := range c.Offers {
			if a := o.Source.AsOf; !a.IsZero() && (c.AsOf.IsZero() || a.Before(c.AsOf)) {
				c.AsOf = a
			}
		}
		if c.AsOf.IsZero() && len(errs) == 0 {
			errs = append(errs, &FieldError{Field: "OfferImportOptions.AsOf", Value: "", Err: ErrMissing})
		}
	}
	if len(errs) > 0 {
		if opts.KeepGoodRows {
			return c, errors.Join(errs...)
		}
		return Catalog{}, errors.Join(errs...)
	}
	return c, nil
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
