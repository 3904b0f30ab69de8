package provider

import (
	"errors"
	"io"
	"math"
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
const DefaultSpotInterruptionRatePerHour = 0.10 / float64(Month/time.Hour)

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
	rows, err := readRows(cr, len(header), "price list", func(rec []string, line int) []error {
		name := get(rec, colAccel)
		if name == "" {
			return nil // CPU-only instance
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
			return rp.errs
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
				rp.errs = append(rp.errs, &RowError{Line: line, Err: reasonf(ErrDuplicateID, "%s also on line %d", echo(of.ID), first)})
				break
			}
			if err := of.Validate(); err != nil {
				rp.errs = append(rp.errs, &RowError{Line: line, Err: err})
			}
		}
		if len(rp.errs) > 0 {
			return rp.errs
		}
		for _, of := range offers {
			seen[of.ID] = line
		}
		c.Offers = append(c.Offers, offers...)
		return nil
	})
	if err != nil {
		return Catalog{}, err
	}
	return importResult(c, rows, opts.KeepGoodRows)
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
		p.add("ImportOptions.Currency", c.currency, errCurrencyCode)
	}
	if opts.AsOf.IsZero() {
		p.add("ImportOptions.AsOf", "", ErrMissing)
	}
	c.asOf = dateOnly(opts.AsOf)
	if !enumValid(kindNames, opts.Kind) {
		p.add("ImportOptions.Kind", int(opts.Kind), ErrUnknownName)
	}
	if !opts.Isolation.Valid() {
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
