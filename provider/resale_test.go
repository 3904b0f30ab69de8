package provider_test

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/gputco/gputco/provider"
)

func TestResaleFraction(t *testing.T) {
	r := provider.Resale{Points: []provider.ResalePoint{{Age: provider.Year, Fraction: 0.6}, {Age: 3 * provider.Year, Fraction: 0.2}}}
	tests := []struct {
		name   string
		age    time.Duration
		want   float64
		reason string
	}{
		{"new", 0, 1, "the purchase price at age 0"},
		{"half a year", provider.Year / 2, 0.8, "linear from 1 to the first point"},
		{"first point", provider.Year, 0.6, "the point itself"},
		{"two years", 2 * provider.Year, 0.4, "linear between points"},
		{"beyond", 10 * provider.Year, 0.2, "the last fraction beyond the last point"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := r.Fraction(tt.age); math.Abs(got-tt.want) > 1e-12 {
				t.Errorf("Fraction(%v) = %g, want %g (%s)", tt.age, got, tt.want, tt.reason)
			}
		})
	}
	if got := (provider.Resale{}).Fraction(provider.Year); got != 0 {
		t.Errorf("zero Resale: Fraction = %g, want 0", got)
	}
}

func TestResaleValidate(t *testing.T) {
	y := provider.Year
	tests := []struct {
		name   string
		points []provider.ResalePoint
		ok     bool
		reason string
	}{
		{"none", nil, true, "no curve: book value"},
		{"falling", []provider.ResalePoint{{y, 0.7}, {2 * y, 0.5}}, true, "a valid curve"},
		{"rising", []provider.ResalePoint{{y, 0.5}, {2 * y, 0.7}}, false, "used hardware does not gain value"},
		{"above one", []provider.ResalePoint{{y, 1.2}}, false, "no more than the price"},
		{"negative", []provider.ResalePoint{{y, -0.1}}, false, "no negative value"},
		{"NaN", []provider.ResalePoint{{y, math.NaN()}}, false, "not finite"},
		{"age zero", []provider.ResalePoint{{0, 0.9}}, false, "ages are positive"},
		{"ages out of order", []provider.ResalePoint{{2 * y, 0.5}, {y, 0.4}}, false, "ages increase"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := provider.Resale{Points: tt.points}.Validate()
			if (err == nil) != tt.ok {
				t.Fatalf("Validate() = %v, want ok %v (%s)", err, tt.ok, tt.reason)
			}
			if err != nil && !errors.Is(err, provider.ErrOutOfRange) && !errors.Is(err, provider.ErrNotFinite) {
				t.Errorf("error %v wraps neither ErrOutOfRange nor ErrNotFinite", err)
			}
			o := provider.Owned{UsefulLifeYears: 3, Resale: provider.Resale{Points: tt.points}}
			if (o.Validate() == nil) != tt.ok {
				t.Errorf("Owned.Validate() = %v, want ok %v (%s)", o.Validate(), tt.ok, tt.reason)
			}
		})
	}
}
