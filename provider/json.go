package provider

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/shopspring/decimal"
)

// Duration is a time.Duration that reads and writes JSON as a Go duration
// string ("720h0m0s", "1m", "90s"). Use it in the JSON form of downstream
// pricing modes.
type Duration time.Duration

// MarshalText writes d as time.Duration.String does.
func (d Duration) MarshalText() ([]byte, error) { return []byte(time.Duration(d).String()), nil }

// UnmarshalText parses a Go duration string.
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	if err != nil {
		return fmt.Errorf("provider: duration %q: %w: %w", b, ErrMalformed, err)
	}
	*d = Duration(v)
	return nil
}

// Date is a calendar date that reads and writes JSON as "2006-01-02". The zero
// Date is written as "".
type Date time.Time

// MarshalText writes the date as YYYY-MM-DD, or "" for the zero time.
func (d Date) MarshalText() ([]byte, error) {
	if time.Time(d).IsZero() {
		return []byte{}, nil
	}
	return []byte(time.Time(d).Format(time.DateOnly)), nil
}

// UnmarshalText parses YYYY-MM-DD; "" gives the zero time.
func (d *Date) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		*d = Date{}
		return nil
	}
	t, err := time.Parse(time.DateOnly, string(b))
	if err != nil {
		return fmt.Errorf("provider: date %q: %w: %w", b, ErrMalformed, err)
	}
	*d = Date(t)
	return nil
}

// PricingDecoder decodes the JSON object of one pricing mode. raw is the whole
// object, including its "mode" field; d is the decoder in use, for modes that
// wrap another pricing as Credit does (call d.Pricing on the inner object).
type PricingDecoder func(raw json.RawMessage, d Decoder) (Pricing, error)

// Decoder decodes catalogs, offers and pricings from JSON. The zero Decoder
// knows the built-in modes. To decode a mode of your own, add a
// PricingDecoder under its Mode name to Modes; it takes precedence over a
// built-in mode of the same name. A Decoder is safe for concurrent use as long
// as Modes is not modified.
type Decoder struct {
	// Modes maps a "mode" discriminator to its decoder.
	Modes map[string]PricingDecoder

	// depth counts the pricings being decoded around the current one.
	depth int
}

// MaxPricingDepth bounds how deeply pricings may nest (a credit around a
// credit around ...), so that hostile input cannot make decoding slow.
const MaxPricingDepth = 8

func (d Decoder) lookup(mode string) (PricingDecoder, bool) {
	if f, ok := d.Modes[mode]; ok {
		return f, true
	}
	switch mode {
	case "metered":
		return decodeInto[Metered, meteredJSON](meteredJSON.pricing), true
	case "spot":
		return decodeInto[Spot, spotJSON](spotJSON.pricing), true
	case "reserved":
		return decodeInto[Reserved, reservedJSON](reservedJSON.pricing), true
	case "owned":
		return decodeInto[Owned, ownedJSON](ownedJSON.pricing), true
	case "credit":
		return decodeCredit, true
	}
	return nil, false
}

// Pricing decodes one pricing object, dispatching on its "mode" field. A
// wrapping mode's decoder calls Pricing on the inner object with the Decoder
// it was given; nesting deeper than MaxPricingDepth is an error.
func (d Decoder) Pricing(data []byte) (Pricing, error) {
	if d.depth >= MaxPricingDepth {
		return nil, &FieldError{Field: "mode", Value: d.depth + 1, Err: fmt.Errorf("pricings nested deeper than %d: %w", MaxPricingDepth, ErrOutOfRange)}
	}
	var head struct {
		Mode string `json:"mode"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, fmt.Errorf("provider: pricing: %w", malformed(err))
	}
	if head.Mode == "" {
		return nil, &FieldError{Field: "mode", Value: "", Err: ErrMissing}
	}
	dec, ok := d.lookup(head.Mode)
	if !ok {
		return nil, &FieldError{Field: "mode", Value: head.Mode, Err: ErrUnknownMode}
	}
	inner := d
	inner.depth++
	p, err := dec(data, inner)
	if err != nil {
		return nil, err
	}
	if p == nil {
		return nil, &FieldError{Field: "mode", Value: head.Mode, Err: ErrMissing}
	}
	return p, nil
}

// Offer decodes one offer. It does not validate it.
func (d Decoder) Offer(data []byte) (Offer, error) {
	var w offerJSON
	if err := strict(data, &w); err != nil {
		return Offer{}, fmt.Errorf("provider: offer: %w", malformed(err))
	}
	return w.offer(d)
}

// Catalog decodes a catalog and validates it. On a validation error it
// returns the decoded catalog together with the error, so that callers may
// inspect or repair it; on a syntax error the catalog is empty.
func (d Decoder) Catalog(data []byte) (Catalog, error) {
	var w catalogJSON
	if err := strict(data, &w); err != nil {
		return Catalog{}, fmt.Errorf("provider: catalog: %w", malformed(err))
	}
	c := Catalog{Currency: w.Currency, AsOf: time.Time(w.AsOf)}
	var errs []error
	for i, raw := range w.Offers {
		o, err := d.Offer(raw)
		if err != nil {
			errs = append(errs, fmt.Errorf("provider: catalog offer %d: %w", i, err))
			continue
		}
		c.Offers = append(c.Offers, o)
	}
	if len(errs) > 0 {
		// Report the problems of the offers that did decode as well.
		return Catalog{}, errors.Join(append(errs, c.Validate())...)
	}
	return c, c.Validate()
}

// malformed wraps a JSON syntax or type error so that errors.Is matches
// ErrMalformed; errors that already wrap a sentinel of the package pass as
// they are.
func malformed(err error) error {
	var fe *FieldError
	if errors.Is(err, ErrMalformed) || errors.As(err, &fe) {
		return err
	}
	return fmt.Errorf("%w: %w", ErrMalformed, err)
}

// strict unmarshals data into v, rejecting unknown fields and trailing data.
func strict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return fmt.Errorf("trailing data after JSON value")
	}
	return nil
}

// decodeInto decodes the wire form W strictly and converts it to P.
func decodeInto[P Pricing, W any](conv func(W) P) PricingDecoder {
	return func(raw json.RawMessage, _ Decoder) (Pricing, error) {
		var w W
		if err := strict(raw, &w); err != nil {
			var zero P
			return nil, fmt.Errorf("provider: %s pricing: %w", zero.Mode(), malformed(err))
		}
		return conv(w), nil
	}
}

// MarshalPricing encodes p as a JSON object that carries p.Mode() in its
// "mode" field. Built-in modes write their wire form; any other Pricing is
// encoded with encoding/json (so it may implement json.Marshaler) and must
// encode to a JSON object, into which "mode" is added if missing.
func MarshalPricing(p Pricing) ([]byte, error) {
	if p == nil {
		return nil, &FieldError{Field: "Pricing", Err: ErrMissing}
	}
	b, err := json.Marshal(p)
	if err != nil {
		return nil, fmt.Errorf("provider: %s pricing: %w", p.Mode(), err)
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(b, &obj); err != nil {
		return nil, fmt.Errorf("provider: %s pricing does not encode to a JSON object: %w", p.Mode(), err)
	}
	if m, ok := obj["mode"]; ok {
		var s string
		if json.Unmarshal(m, &s) == nil && s == p.Mode() {
			return b, nil
		}
	}
	mode, _ := json.Marshal(p.Mode())
	if obj == nil {
		obj = map[string]json.RawMessage{}
	}
	obj["mode"] = mode
	return json.Marshal(obj)
}

// Wire forms of the built-in modes. Field order is the JSON order.

type meteredJSON struct {
	Mode        string          `json:"mode"`
	RatePerHour decimal.Decimal `json:"ratePerHour"`
	Increment   Duration        `json:"increment"`
	Minimum     Duration        `json:"minimum"`
}

func (w meteredJSON) pricing() Metered {
	return Metered{RatePerHour: w.RatePerHour, Increment: time.Duration(w.Increment), Minimum: time.Duration(w.Minimum)}
}

// MarshalJSON writes {"mode":"metered", ...} with durations as Go duration strings.
func (m Metered) MarshalJSON() ([]byte, error) {
	return json.Marshal(meteredJSON{"metered", m.RatePerHour, Duration(m.Increment), Duration(m.Minimum)})
}

type spotJSON struct {
	Mode                    string          `json:"mode"`
	RatePerHour             decimal.Decimal `json:"ratePerHour"`
	Increment               Duration        `json:"increment"`
	Minimum                 Duration        `json:"minimum"`
	InterruptionRatePerHour float64         `json:"interruptionRatePerHour"`
	Notice                  Duration        `json:"notice"`
}

func (w spotJSON) pricing() Spot {
	return Spot{RatePerHour: w.RatePerHour, Increment: time.Duration(w.Increment), Minimum: time.Duration(w.Minimum),
		InterruptionRatePerHour: w.InterruptionRatePerHour, Notice: time.Duration(w.Notice)}
}

// MarshalJSON writes {"mode":"spot", ...}; a NaN or infinite rate is an error.
func (s Spot) MarshalJSON() ([]byte, error) {
	return json.Marshal(spotJSON{"spot", s.RatePerHour, Duration(s.Increment), Duration(s.Minimum),
		s.InterruptionRatePerHour, Duration(s.Notice)})
}

type reservedJSON struct {
	Mode             string          `json:"mode"`
	Term             Duration        `json:"term"`
	UpfrontPerNode   decimal.Decimal `json:"upfrontPerNode"`
	RecurringPerHour decimal.Decimal `json:"recurringPerHour"`
}

func (w reservedJSON) pricing() Reserved {
	return Reserved{Term: time.Duration(w.Term), UpfrontPerNode: w.UpfrontPerNode, RecurringPerHour: w.RecurringPerHour}
}

// MarshalJSON writes {"mode":"reserved", ...}.
func (r Reserved) MarshalJSON() ([]byte, error) {
	return json.Marshal(reservedJSON{"reserved", Duration(r.Term), r.UpfrontPerNode, r.RecurringPerHour})
}

type ownedJSON struct {
	Mode                       string          `json:"mode"`
	PurchasePerNode            decimal.Decimal `json:"purchasePerNode"`
	UsefulLifeYears            int             `json:"usefulLifeYears"`
	SalvagePerNode             decimal.Decimal `json:"salvagePerNode"`
	Method                     Depreciation    `json:"depreciation"`
	IdlePowerKW                float64         `json:"idlePowerKW"`
	MaxPowerKW                 float64         `json:"maxPowerKW"`
	ContractedPowerKW          float64         `json:"contractedPowerKW"`
	PUE                        float64         `json:"pue"`
	EnergyPerKWh               decimal.Decimal `json:"energyPerKWh"`
	ColocationPerKWMonth       decimal.Decimal `json:"colocationPerKWMonth"`
	MaintenanceFractionPerYear float64         `json:"maintenanceFractionPerYear"`
	StaffFTEPerNode            float64         `json:"staffFTEPerNode"`
	StaffCostPerYear           decimal.Decimal `json:"staffCostPerYear"`
	ProcurementLeadTime        Duration        `json:"procurementLeadTime"`
	Resale                     *resaleJSON     `json:"resale,omitempty"`
}

// resaleJSON is a Resale curve: {"points":[{"age":"8760h0m0s","fraction":0.72}], ...}.
type resaleJSON struct {
	Points []struct {
		Age      Duration `json:"age"`
		Fraction float64  `json:"fraction"`
	} `json:"points"`
	Source   string `json:"source"`
	Estimate bool   `json:"estimate"`
}

func (w ownedJSON) pricing() Owned {
	return Owned{
		PurchasePerNode: w.PurchasePerNode, UsefulLifeYears: w.UsefulLifeYears, SalvagePerNode: w.SalvagePerNode,
		Method: w.Method, IdlePowerKW: w.IdlePowerKW, MaxPowerKW: w.MaxPowerKW, ContractedPowerKW: w.ContractedPowerKW,
		PUE: w.PUE, EnergyPerKWh: w.EnergyPerKWh, ColocationPerKWMonth: w.ColocationPerKWMonth,
		MaintenanceFractionPerYear: w.MaintenanceFractionPerYear, StaffFTEPerNode: w.StaffFTEPerNode,
		StaffCostPerYear: w.StaffCostPerYear, ProcurementLeadTime: time.Duration(w.ProcurementLeadTime),
		Resale: w.Resale.resale(),
	}
}

func (w *resaleJSON) resale() Resale {
	if w == nil {
		return Resale{}
	}
	r := Resale{Source: w.Source, Estimate: w.Estimate, Points: make([]ResalePoint, len(w.Points))}
	for i, p := range w.Points {
		r.Points[i] = ResalePoint{Age: time.Duration(p.Age), Fraction: p.Fraction}
	}
	return r
}

func resaleToJSON(r Resale) *resaleJSON {
	if r.IsZero() && r.Source == "" && !r.Estimate {
		return nil
	}
	w := &resaleJSON{Source: r.Source, Estimate: r.Estimate, Points: make([]struct {
		Age      Duration `json:"age"`
		Fraction float64  `json:"fraction"`
	}, len(r.Points))}
	for i, p := range r.Points {
		w.Points[i].Age, w.Points[i].Fraction = Duration(p.Age), p.Fraction
	}
	return w
}

// MarshalJSON writes {"mode":"owned", ...}.
func (o Owned) MarshalJSON() ([]byte, error) {
	return json.Marshal(ownedJSON{
		Mode: "owned", PurchasePerNode: o.PurchasePerNode, UsefulLifeYears: o.UsefulLifeYears,
		SalvagePerNode: o.SalvagePerNode, Method: o.Method, IdlePowerKW: o.IdlePowerKW, MaxPowerKW: o.MaxPowerKW,
		ContractedPowerKW: o.ContractedPowerKW, PUE: o.PUE, EnergyPerKWh: o.EnergyPerKWh,
		ColocationPerKWMonth: o.ColocationPerKWMonth, MaintenanceFractionPerYear: o.MaintenanceFractionPerYear,
		StaffFTEPerNode: o.StaffFTEPerNode, StaffCostPerYear: o.StaffCostPerYear,
		ProcurementLeadTime: Duration(o.ProcurementLeadTime), Resale: resaleToJSON(o.Resale),
	})
}

type creditJSON struct {
	Mode   string          `json:"mode"`
	Amount decimal.Decimal `json:"amount"`
	Base   json.RawMessage `json:"base"`
}

func decodeCredit(raw json.RawMessage, d Decoder) (Pricing, error) {
	var w creditJSON
	if err := strict(raw, &w); err != nil {
		return nil, fmt.Errorf("provider: credit pricing: %w", malformed(err))
	}
	if len(w.Base) == 0 || string(w.Base) == "null" {
		return Credit{Amount: w.Amount}, nil
	}
	base, err := d.Pricing(w.Base)
	if err != nil {
		return nil, fmt.Errorf("provider: credit pricing base: %w", err)
	}
	return Credit{Base: base, Amount: w.Amount}, nil
}

// MarshalJSON writes {"mode":"credit","amount":...,"base":{...}}.
func (c Credit) MarshalJSON() ([]byte, error) {
	w := creditJSON{Mode: "credit", Amount: c.Amount, Base: json.RawMessage("null")}
	if c.Base != nil {
		b, err := MarshalPricing(c.Base)
		if err != nil {
			return nil, err
		}
		w.Base = b
	}
	return json.Marshal(w)
}

// Wire forms of offers and catalogs.

type availabilityJSON struct {
	FillProbability float64  `json:"fillProbability"`
	MaxNodes        int      `json:"maxNodes"`
	LeadTime        Duration `json:"leadTime"`
}

type hiddenJSON struct {
	SetupHours          float64         `json:"setupHours"`
	EgressPerGB         decimal.Decimal `json:"egressPerGB"`
	IngressPerGB        decimal.Decimal `json:"ingressPerGB"`
	StoragePerGBMonth   decimal.Decimal `json:"storagePerGBMonth"`
	TransferGbps        float64         `json:"transferGbps"`
	NodeMTBF            Duration        `json:"nodeMTBF"`
	RecoveryTime        Duration        `json:"recoveryTime"`
	PlatformFeeFraction float64         `json:"platformFeeFraction"`
	StaffFTE            float64         `json:"staffFTE"`
	StaffCostPerYear    decimal.Decimal `json:"staffCostPerYear"`
}

type sourceJSON struct {
	Name     string `json:"name"`
	URL      string `json:"url,omitempty"`
	AsOf     Date   `json:"asOf"`
	Estimate bool   `json:"estimate,omitempty"`
	Note     string `json:"note,omitempty"`
}

type offerJSON struct {
	ID           string           `json:"id"`
	Provider     string           `json:"provider"`
	Kind         Kind             `json:"kind"`
	Region       string           `json:"region"`
	Jurisdiction string           `json:"jurisdiction"`
	Currency     string           `json:"currency,omitempty"`
	GPU          GPU              `json:"gpu"`
	GPUsPerNode  int              `json:"gpusPerNode"`
	Interconnect Interconnect     `json:"interconnect"`
	Isolation    Isolation        `json:"isolation"`
	Pricing      json.RawMessage  `json:"pricing"`
	Availability availabilityJSON `json:"availability"`
	Hidden       hiddenJSON       `json:"hidden"`
	Source       sourceJSON       `json:"source"`
}

func (w offerJSON) offer(d Decoder) (Offer, error) {
	o := Offer{
		ID: w.ID, Provider: w.Provider, Kind: w.Kind, Region: w.Region, Jurisdiction: w.Jurisdiction,
		Currency: w.Currency, GPU: w.GPU, GPUsPerNode: w.GPUsPerNode, Interconnect: w.Interconnect,
		Isolation: w.Isolation,
		Availability: Availability{
			FillProbability: w.Availability.FillProbability, MaxNodes: w.Availability.MaxNodes,
			LeadTime: time.Duration(w.Availability.LeadTime),
		},
		Hidden: HiddenCosts{
			SetupHours: w.Hidden.SetupHours, EgressPerGB: w.Hidden.EgressPerGB, IngressPerGB: w.Hidden.IngressPerGB,
			StoragePerGBMonth: w.Hidden.StoragePerGBMonth, TransferGbps: w.Hidden.TransferGbps,
			NodeMTBF: time.Duration(w.Hidden.NodeMTBF), RecoveryTime: time.Duration(w.Hidden.RecoveryTime),
			PlatformFeeFraction: w.Hidden.PlatformFeeFraction, StaffFTE: w.Hidden.StaffFTE,
			StaffCostPerYear: w.Hidden.StaffCostPerYear,
		},
		Source: Source{Name: w.Source.Name, URL: w.Source.URL, AsOf: time.Time(w.Source.AsOf),
			Estimate: w.Source.Estimate, Note: w.Source.Note},
	}
	if len(w.Pricing) == 0 || string(w.Pricing) == "null" {
		return o, nil // Validate reports the missing pricing
	}
	p, err := d.Pricing(w.Pricing)
	if err != nil {
		var fe *FieldError
		if errors.As(err, &fe) && fe.Offer == "" {
			c := *fe
			c.Offer, c.Field = w.ID, "Pricing."+fe.Field
			return Offer{}, &c
		}
		return Offer{}, fmt.Errorf("provider: offer %q: %w", w.ID, err)
	}
	o.Pricing = p
	return o, nil
}

// MarshalJSON writes the offer's wire form: durations as Go duration strings,
// dates as YYYY-MM-DD, money as decimal strings, and the pricing as an object
// with a "mode" field (see MarshalPricing).
func (o Offer) MarshalJSON() ([]byte, error) {
	w := offerJSON{
		ID: o.ID, Provider: o.Provider, Kind: o.Kind, Region: o.Region, Jurisdiction: o.Jurisdiction,
		Currency: o.Currency, GPU: o.GPU, GPUsPerNode: o.GPUsPerNode, Interconnect: o.Interconnect,
		Isolation: o.Isolation, Pricing: json.RawMessage("null"),
		Availability: availabilityJSON{o.Availability.FillProbability, o.Availability.MaxNodes,
			Duration(o.Availability.LeadTime)},
		Hidden: hiddenJSON{
			SetupHours: o.Hidden.SetupHours, EgressPerGB: o.Hidden.EgressPerGB, IngressPerGB: o.Hidden.IngressPerGB,
			StoragePerGBMonth: o.Hidden.StoragePerGBMonth, TransferGbps: o.Hidden.TransferGbps,
			NodeMTBF: Duration(o.Hidden.NodeMTBF), RecoveryTime: Duration(o.Hidden.RecoveryTime),
			PlatformFeeFraction: o.Hidden.PlatformFeeFraction, StaffFTE: o.Hidden.StaffFTE,
			StaffCostPerYear: o.Hidden.StaffCostPerYear,
		},
		Source: sourceJSON{o.Source.Name, o.Source.URL, Date(o.Source.AsOf), o.Source.Estimate, o.Source.Note},
	}
	if o.Pricing != nil {
		b, err := MarshalPricing(o.Pricing)
		if err != nil {
			return nil, fmt.Errorf("provider: offer %q: %w", o.ID, err)
		}
		w.Pricing = b
	}
	return json.Marshal(w)
}

// UnmarshalJSON decodes an offer with the built-in pricing modes only; use a
// Decoder for modes of your own.
func (o *Offer) UnmarshalJSON(data []byte) error {
	v, err := Decoder{}.Offer(data)
	if err != nil {
		return err
	}
	*o = v
	return nil
}

type catalogJSON struct {
	Currency string            `json:"currency"`
	AsOf     Date              `json:"asOf"`
	Offers   []json.RawMessage `json:"offers"`
}

// MarshalJSON writes the catalog's wire form: {"currency", "asOf", "offers"}.
func (c Catalog) MarshalJSON() ([]byte, error) {
	w := struct {
		Currency string  `json:"currency"`
		AsOf     Date    `json:"asOf"`
		Offers   []Offer `json:"offers"`
	}{c.Currency, Date(c.AsOf), c.Offers}
	if w.Offers == nil {
		w.Offers = []Offer{}
	}
	return json.Marshal(w)
}

// UnmarshalJSON decodes and validates a catalog with the built-in pricing
// modes only; use a Decoder for modes of your own.
func (c *Catalog) UnmarshalJSON(data []byte) error {
	v, err := Decoder{}.Catalog(data)
	*c = v
	return err
}
