package main

import (
	"strconv"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/gputco/gputco/tco"
)

// csvHeader is the header of the CSV form: one row per rent offer.
func csvHeader(s study) []string {
	h := []string{"rent_offer", "mode", "rate_per_gpu_hour", "crossings", "own_cheaper_at", "own_cheaper_from_month",
		"rent_total", "rent_present_value", "rent_explicit", "rent_hidden", "own_present_value", "own_explicit", "own_hidden", "verdict"}
	for _, y := range s.opt.horizons {
		h = append(h, "own_cheaper_at_"+strconv.FormatFloat(y, 'f', -1, 64)+"y")
	}
	return h
}

// csvRows are the rows of the CSV form, money as plain decimals.
func csvRows(s study) [][]string {
	var rows [][]string
	for k, r := range s.rows {
		verdict := "rent"
		if r.owns.PresentValue.LessThan(r.rent.PresentValue) {
			verdict = "buy"
		}
		row := []string{r.offer.ID, r.offer.Pricing.Mode(), strconv.FormatFloat(r.rate, 'f', 4, 64),
			strings.ReplaceAll(crossings(r.breakEven), ",", ";"), strings.ReplaceAll(ownRanges(r.breakEven), ",", ";"),
			strconv.Itoa(r.breakEven.Month), r.rent.Total.StringFixed(2), r.rent.PresentValue.StringFixed(2),
			r.rent.Explicit.StringFixed(2), r.rent.Hidden.StringFixed(2), r.owns.PresentValue.StringFixed(2),
			r.owns.Explicit.StringFixed(2), r.owns.Hidden.StringFixed(2), verdict}
		for i, be := range s.byHorizon[k].points {
			if s.byHorizon[k].errs[i] != nil {
				row = append(row, "")
				continue
			}
			row = append(row, strings.ReplaceAll(ownRanges(be), ",", ";"))
		}
		rows = append(rows, row)
	}
	return rows
}

// option is one rent offer in the JSON form.
type option struct {
	Offer           string             `json:"offer"`
	Mode            string             `json:"mode"`
	RatePerGPUHour  float64            `json:"ratePerGPUHour"`
	BreakEven       tco.BreakEvenPoint `json:"breakEven"`
	Rent            summary            `json:"rent"`
	ByHorizon       []horizonPoint     `json:"byHorizon"`
	OwnCheaperAtNow bool               `json:"ownCheaperAtExpectedUtilization"`
}

// summary is a report's totals.
type summary struct {
	Offer        string          `json:"offer"`
	Total        decimal.Decimal `json:"total"`
	PresentValue decimal.Decimal `json:"presentValue"`
	Explicit     decimal.Decimal `json:"explicit"`
	Hidden       decimal.Decimal `json:"hidden"`
}

// horizonPoint is a break-even at one horizon.
type horizonPoint struct {
	Years     float64             `json:"years"`
	BreakEven *tco.BreakEvenPoint `json:"breakEven,omitempty"`
	Error     string              `json:"error,omitempty"`
}

func summarise(r tco.Report) summary {
	return summary{Offer: r.Offer, Total: r.Total, PresentValue: r.PresentValue, Explicit: r.Explicit, Hidden: r.Hidden}
}

// jsonOf is the JSON form of the study.
func jsonOf(s study) any {
	v := struct {
		Currency    string   `json:"currency"`
		Own         summary  `json:"own"`
		Years       float64  `json:"years"`
		Utilization float64  `json:"utilization"`
		Options     []option `json:"options"`
		Skipped     []string `json:"skipped,omitempty"`
	}{Currency: s.cat.Currency, Own: summarise(s.rows[0].owns), Years: s.opt.years, Utilization: s.opt.util, Skipped: s.skipped}
	for k, r := range s.rows {
		o := option{Offer: r.offer.ID, Mode: r.offer.Pricing.Mode(), RatePerGPUHour: r.rate, BreakEven: r.breakEven,
			Rent: summarise(r.rent), OwnCheaperAtNow: r.owns.PresentValue.LessThan(r.rent.PresentValue)}
		for i, be := range s.byHorizon[k].points {
			hp := horizonPoint{Years: s.opt.horizons[i]}
			if err := s.byHorizon[k].errs[i]; err != nil {
				hp.Error = err.Error()
			} else {
				hp.BreakEven = &be
			}
			o.ByHorizon = append(o.ByHorizon, hp)
		}
		v.Options = append(v.Options, o)
	}
	return v
}
