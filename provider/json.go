package provider

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/gputco/gputco/internal/duration"
	"github.com/gputco/gputco/internal/vocab"
	"github.com/shopspring/decimal"
)

// Duration is a time.Duration that writes JSON as a Go duration string
// ("720h0m0s", "1m0s", "1s") and reads it as the offers CSV does: a Go
// duration or a number of days, months (730 h) or years (8,760 h) — "30d",
// "1mo", "3y". Use it in the JSON form of downstream pricing modes.
type Duration time.Duration

// MarshalText writes d as time.Duration.String does.
func (d Duration) MarshalText() ([]byte, error) { return []byte(time.Duration(d).String()), nil }

// UnmarshalText parses a Go duration string or a number of days, months or
// years; a duration beyond time.Duration's range wraps ErrOutOfRange, other
// text ErrMalformed.
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := duration.Parse(string(b))
	switch {
	case errors.Is(err, duration.ErrRange):
		return fmt.Errorf("provider: duration %s: %w: %w", echo(string(b)), ErrOutOfRange, err)
	case err != nil:
		// time's error quotes the whole input: echo a bounded part instead.
		return fmt.Errorf("provider: duration %s: %w: %w", echo(string(b)), ErrMalformed, err)
	}
	*d = Duration(v)
	return nil
}

// Amount is a decimal.Decimal that reads and writes JSON as decimal.Decimal
// does (a decimal string such as "2.49", or a number) but refuses text of
// more than MaxNumberLen characters, as the CSV importers do: parsing a
// decimal takes time quadratic in its length. The catalog's money fields
// are read with it; use it in the JSON form of downstream pricing modes.
type Amount decimal.Decimal

// MarshalJSON writes the amount as decimal.Decimal does.
func (a Amount) MarshalJSON() ([]byte, error) { return decimal.Decimal(a).MarshalJSON() }

// UnmarshalJSON reads a decimal string or number of at most MaxNumberLen
// characters; a longer one is an error wrapping ErrOutOfRange, one that does
// not parse an error wrapping ErrMalformed. "null" leaves a unchanged.
func (a *Amount) UnmarshalJSON(b []byte) error {
	text := b
	if len(text) >= 2 && text[0] == '"' && text[len(text)-1] == '"' {
		text = text[1 : len(text)-1]
	}
	if len(text) > MaxNumberLen {
		return fmt.Errorf("provider: amount %s: %w: more than MaxNumberLen = %d characters",
			echo(string(text)), ErrOutOfRange, MaxNumberLen)
	}
	d := decimal.Decimal(*a)
	if err := d.UnmarshalJSON(b); err != nil {
		return fmt.Errorf("provider: amount %s: %w: not a decimal number", echo(string(text)), ErrMalformed)
	}
	*a = Amount(d)
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
		return fmt.Errorf("provider: date %s: %w: not a date YYYY-MM-DD", echo(string(b)), ErrMalformed)
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
	// doc is the whole document being decoded, for error positions.
	doc []byte
}

// MaxPricingDepth bounds how deeply pricings may nest: a chain of at most
// eight pricings (seven credits around a base mode). The decoder refuses
// deeper JSON and Credit.Validate (hence Offer and Catalog validation) and
// Credit.MarshalJSON refuse deeper chains, so that hostile input cannot make
// decoding, validation, pricing or encoding slow.
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
		return nil, &FieldError{Field: "mode", Value: d.depth + 1, Err: errTooDeep()}
	}
	var head struct {
		Mode string `json:"mode"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, fmt.Errorf("provider: pricing: %w", nested{positioned(d.doc, data, err)})
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

// Offer decodes one offer. It does not validate it. Its errors name the
// offer by its "id" and locate JSON syntax and type errors by line and column
// (a *JSONError).
func (d Decoder) Offer(data []byte) (Offer, error) { return d.offerIn(data, data) }

// offerIn decodes the offer raw, a part of the document doc (for positions).
func (d Decoder) offerIn(doc, raw []byte) (Offer, error) {
	d.doc = doc
	var w offerJSON
	if err := strict(raw, &w); err != nil {
		id := offerID(raw)
		if fe := enumProblem(err, offerEnums); fe != nil {
			fe.Offer = id
			return Offer{}, fe
		}
		var fe *FieldError
		if errors.As(err, &fe) && fe.Offer == "" && id != "" {
			c := *fe
			c.Offer = id
			return Offer{}, &c
		}
		what := "provider: offer"
		if id != "" {
			what += " " + echo(id)
		}
		return Offer{}, fmt.Errorf("%s: %w", what, nested{positioned(doc, raw, err)})
	}
	return w.offer(d)
}

// Catalog decodes a catalog and validates it, offer by offer. On a
// validation error it returns the decoded catalog together with the error,
// so that callers may inspect or repair it; on a syntax error, an offer that
// does not decode, or more than MaxProblems problems, the catalog is empty
// (and an input of a million bad offers costs memory for MaxProblems of
// them). Problems are listed as Catalog.Validate lists them, at most
// MaxProblems.
func (d Decoder) Catalog(data []byte) (Catalog, error) {
	var w catalogJSON
	if err := strict(data, &w); err != nil {
		return Catalog{}, fmt.Errorf("provider: catalog: %w", nested{positioned(data, nil, err)})
	}
	c := Catalog{Currency: w.Currency, AsOf: time.Time(w.AsOf)}
	var p problems
	cc := c.check(&p)
	var kept []Offer
	decoded := true
	for i, raw := range w.Offers {
		o, err := d.offerIn(data, raw)
		if err != nil {
			if offerID(raw) == "" { // the error cannot name the offer: number it
				err = fmt.Errorf("provider: catalog offer %d: %w", i, nested{err})
			}
			p.put(err)
			decoded = false
			continue
		}
		// Report the problems of the offers that did decode as well.
		cc.offer(&p, o)
		if decoded && p.more == 0 {
			kept = append(kept, o)
		} else {
			kept = nil
		}
	}
	if !decoded || p.more > 0 {
		return Catalog{}, p.err()
	}
	c.Offers = kept
	return c, p.err()
}

// offerEnums and pricingEnums map the enumerations of an offer's and of a
// built-in pricing's JSON to the key each appears under (once per object),
// so that an unknown name is reported at its path, not by its type.
var (
	offerEnums = map[string]string{
		"Kind": "kind", "GPUClass": "gpu.class", "Isolation": "isolation", "Fabric": "interconnect.fabric",
	}
	pricingEnums = map[string]string{"Depreciation": "depreciation"}
)

// enumProblem returns the *FieldError, at its JSON path, of an unknown
// enumeration name that decoding err reports, or nil when err is not one of
// the enumerations of paths.
func enumProblem(err error, paths map[string]string) *FieldError {
	var fe *FieldError
	if errors.As(err, &fe) && fe.Offer == "" {
		if path, ok := paths[fe.Field]; ok {
			c := *fe
			c.Field = path
			return &c
		}
	}
	var ne *vocab.NameError
	if errors.As(err, &ne) {
		if path, ok := paths[ne.Type]; ok {
			return &FieldError{Field: path, Value: ne.Value,
				Err: fmt.Errorf("%w (one of %s)", ErrUnknownName, quotedNames(ne.Allowed))}
		}
	}
	return nil
}

// malformed wraps a JSON syntax or type error so that errors.Is matches
// ErrMalformed; errors that already wrap a sentinel of the package pass as
// they are.
func malformed(err error) error {
	var fe *FieldError
	if errors.Is(err, ErrMalformed) || errors.As(err, &fe) {
		return err
	}
	return fmt.Errorf("%w: %w", ErrMalformed, boundedError{err})
}

// maxForeignMessage bounds the message of an error of encoding/json, which
// quotes field names and values of any length.
const maxForeignMessage = 4 * MaxEchoBytes

// boundedError is an error whose message is cut to maxForeignMessage bytes.
type boundedError struct{ err error }

func (e boundedError) Error() string {
	m := e.err.Error()
	if len(m) <= maxForeignMessage {
		return m
	}
	cut := maxForeignMessage
	for cut > 0 && !utf8.RuneStart(m[cut]) {
		cut--
	}
	return m[:cut] + "… (" + grouped(len(m)) + " bytes)"
}

func (e boundedError) Unwrap() error { return e.err }

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
	return func(raw json.RawMessage, d Decoder) (Pricing, error) {
		var w W
		if err := strict(raw, &w); err != nil {
			if fe := enumProblem(err, pricingEnums); fe != nil {
				return nil, fe
			}
			var zero P
			return nil, fmt.Errorf("provider: %s pricing: %w", zero.Mode(), nested{positioned(d.doc, raw, err)})
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
		return nil, &FieldError{Field: "pricing", Err: ErrMissing}
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
	Mode        string   `json:"mode"`
	RatePerHour Amount   `json:"ratePerHour"`
	Increment   Duration `json:"increment"`
	Minimum     Duration `json:"minimum"`
}

func (w meteredJSON) pricing() Metered {
	return Metered{RatePerHour: decimal.Decimal(w.RatePerHour), Increment: time.Duration(w.Increment), Minimum: time.Duration(w.Minimum)}
}

// MarshalJSON writes {"mode":"metered", ...} with durations as Go duration strings.
func (m Metered) MarshalJSON() ([]byte, error) {
	return json.Marshal(meteredJSON{"metered", Amount(m.RatePerHour), Duration(m.Increment), Duration(m.Minimum)})
}

type spotJSON struct {
	Mode                    string   `json:"mode"`
	RatePerHour             Amount   `json:"ratePerHour"`
	Increment               Duration `json:"increment"`
	Minimum                 Duration `json:"minimum"`
	InterruptionRatePerHour float64  `json:"interruptionRatePerHour"`
	Notice                  Duration `json:"notice"`
}

func (w spotJSON) pricing() Spot {
	return Spot{RatePerHour: decimal.Decimal(w.RatePerHour), Increment: time.Duration(w.Increment), Minimum: time.Duration(w.Minimum),
		InterruptionRatePerHour: w.InterruptionRatePerHour, Notice: time.Duration(w.Notice)}
}

// MarshalJSON writes {"mode":"spot", ...}; a NaN or infinite rate is an error.
func (s Spot) MarshalJSON() ([]byte, error) {
	return json.Marshal(spotJSON{"spot", Amount(s.RatePerHour), Duration(s.Increment), Duration(s.Minimum),
		s.InterruptionRatePerHour, Duration(s.Notice)})
}

type reservedJSON struct {
	Mode             string   `json:"mode"`
	Term             Duration `json:"term"`
	UpfrontPerNode   Amount   `json:"upfrontPerNode"`
	RecurringPerHour Amount   `json:"recurringPerHour"`
}

func (w reservedJSON) pricing() Reserved {
	return Reserved{Term: time.Duration(w.Term), UpfrontPerNode: decimal.Decimal(w.UpfrontPerNode), RecurringPerHour: decimal.Decimal(w.RecurringPerHour)}
}

// MarshalJSON writes {"mode":"reserved", ...}.
func (r Reserved) MarshalJSON() ([]byte, error) {
	return json.Marshal(reservedJSON{"reserved", Duration(r.Term), Amount(r.UpfrontPerNode), Amount(r.RecurringPerHour)})
}

type ownedJSON struct {
	Mode                       string       `json:"mode"`
	PurchasePerNode            Amount       `json:"purchasePerNode"`
	UsefulLifeYears            int          `json:"usefulLifeYears"`
	SalvagePerNode             Amount       `json:"salvagePerNode"`
	Method                     Depreciation `json:"depreciation"`
	IdlePowerKW                float64      `json:"idlePowerKW"`
	MaxPowerKW                 float64      `json:"maxPowerKW"`
	ContractedPowerKW          float64      `json:"contractedPowerKW"`
	PUE                        float64      `json:"pue"`
	EnergyPerKWh               Amount       `json:"energyPerKWh"`
	ColocationPerKWMonth       Amount       `json:"colocationPerKWMonth"`
	MaintenanceFractionPerYear float64      `json:"maintenanceFractionPerYear"`
	StaffFTEPerNode            float64      `json:"staffFTEPerNode"`
	StaffCostPerYear           Amount       `json:"staffCostPerYear"`
	ProcurementLeadTime        Duration     `json:"procurementLeadTime"`
	Resale                     *resaleJSON  `json:"resale,omitempty"`
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
		PurchasePerNode: decimal.Decimal(w.PurchasePerNode), UsefulLifeYears: w.UsefulLifeYears, SalvagePerNode: decimal.Decimal(w.SalvagePerNode),
		Method: w.Method, IdlePowerKW: w.IdlePowerKW, MaxPowerKW: w.MaxPowerKW, ContractedPowerKW: w.ContractedPowerKW,
		PUE: w.PUE, EnergyPerKWh: decimal.Decimal(w.EnergyPerKWh), ColocationPerKWMonth: decimal.Decimal(w.ColocationPerKWMonth),
		MaintenanceFractionPerYear: w.MaintenanceFractionPerYear, StaffFTEPerNode: w.StaffFTEPerNode,
		StaffCostPerYear: decimal.Decimal(w.StaffCostPerYear), ProcurementLeadTime: time.Duration(w.ProcurementLeadTime),
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
		Mode: "owned", PurchasePerNode: Amount(o.PurchasePerNode), UsefulLifeYears: o.UsefulLifeYears,
		SalvagePerNode: Amount(o.SalvagePerNode), Method: o.Method, IdlePowerKW: o.IdlePowerKW, MaxPowerKW: o.MaxPowerKW,
		ContractedPowerKW: o.ContractedPowerKW, PUE: o.PUE, EnergyPerKWh: Amount(o.EnergyPerKWh),
		ColocationPerKWMonth: Amount(o.ColocationPerKWMonth), MaintenanceFractionPerYear: o.MaintenanceFractionPerYear,
		StaffFTEPerNode: o.StaffFTEPerNode, StaffCostPerYear: Amount(o.StaffCostPerYear),
		ProcurementLeadTime: Duration(o.ProcurementLeadTime), Resale: resaleToJSON(o.Resale),
	})
}

type creditJSON struct {
	Mode   string          `json:"mode"`
	Amount Amount          `json:"amount"`
	Base   json.RawMessage `json:"base"`
}

func decodeCredit(raw json.RawMessage, d Decoder) (Pricing, error) {
	var w creditJSON
	if err := strict(raw, &w); err != nil {
		return nil, fmt.Errorf("provider: credit pricing: %w", malformed(err))
	}
	if len(w.Base) == 0 || string(w.Base) == "null" {
		return Credit{Amount: decimal.Decimal(w.Amount)}, nil
	}
	base, err := d.Pricing(w.Base)
	if err != nil {
		var fe *FieldError
		if errors.As(err, &fe) && fe.Offer == "" {
			c := *fe
			c.Field = "base"
			if fe.Field != "" {
				c.Field += "." + fe.Field
			}
			return nil, &c
		}
		return nil, fmt.Errorf("provider: credit pricing base: %w", nested{err})
	}
	return Credit{Base: base, Amount: decimal.Decimal(w.Amount)}, nil
}

// MarshalJSON writes {"mode":"credit","amount":...,"base":{...}}. A chain
// of more than MaxPricingDepth pricings is an error: the decoder would
// refuse it.
func (c Credit) MarshalJSON() ([]byte, error) {
	if pricingDepth(c) > MaxPricingDepth {
		return nil, &FieldError{Field: "base", Err: errTooDeep()}
	}
	w := creditJSON{Mode: "credit", Amount: Amount(c.Amount), Base: json.RawMessage("null")}
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
	SetupHours          float64  `json:"setupHours"`
	EgressPerGB         Amount   `json:"egressPerGB"`
	IngressPerGB        Amount   `json:"ingressPerGB"`
	StoragePerGBMonth   Amount   `json:"storagePerGBMonth"`
	TransferGbps        float64  `json:"transferGbps"`
	NodeMTBF            Duration `json:"nodeMTBF"`
	RecoveryTime        Duration `json:"recoveryTime"`
	PlatformFeeFraction float64  `json:"platformFeeFraction"`
	StaffFTE            float64  `json:"staffFTE"`
	StaffCostPerYear    Amount   `json:"staffCostPerYear"`
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
			SetupHours: w.Hidden.SetupHours, EgressPerGB: decimal.Decimal(w.Hidden.EgressPerGB), IngressPerGB: decimal.Decimal(w.Hidden.IngressPerGB),
			StoragePerGBMonth: decimal.Decimal(w.Hidden.StoragePerGBMonth), TransferGbps: w.Hidden.TransferGbps,
			NodeMTBF: time.Duration(w.Hidden.NodeMTBF), RecoveryTime: time.Duration(w.Hidden.RecoveryTime),
			PlatformFeeFraction: w.Hidden.PlatformFeeFraction, StaffFTE: w.Hidden.StaffFTE,
			StaffCostPerYear: decimal.Decimal(w.Hidden.StaffCostPerYear),
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
			c.Offer, c.Field = w.ID, "pricing."+fe.Field
			return Offer{}, &c
		}
		return Offer{}, fmt.Errorf("provider: offer %s: %w", echo(w.ID), nested{err})
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
			SetupHours: o.Hidden.SetupHours, EgressPerGB: Amount(o.Hidden.EgressPerGB), IngressPerGB: Amount(o.Hidden.IngressPerGB),
			StoragePerGBMonth: Amount(o.Hidden.StoragePerGBMonth), TransferGbps: o.Hidden.TransferGbps,
			NodeMTBF: Duration(o.Hidden.NodeMTBF), RecoveryTime: Duration(o.Hidden.RecoveryTime),
			PlatformFeeFraction: o.Hidden.PlatformFeeFraction, StaffFTE: o.Hidden.StaffFTE,
			StaffCostPerYear: Amount(o.Hidden.StaffCostPerYear),
		},
		Source: sourceJSON{o.Source.Name, o.Source.URL, Date(o.Source.AsOf), o.Source.Estimate, o.Source.Note},
	}
	if o.Pricing != nil {
		b, err := MarshalPricing(o.Pricing)
		if err != nil {
			return nil, fmt.Errorf("provider: offer %s: %w", echo(o.ID), err)
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
