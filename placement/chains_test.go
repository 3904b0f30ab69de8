package placement

import (
	"fmt"
	"strings"
	"testing"

	"github.com/shopspring/decimal"
	"pgregory.net/rapid"
)

// propMarkChains holds markChains to a brute-force oracle of what leaving a
// commitment out of the model needs: for every commitment it marks, some
// set of the commitments it leaves unmarked covers every stretch the marked
// one covers, holds each stretch against the stock at most once and only
// where the marked one holds it (with a stock to hold against), and costs
// no more — so one node of the set replaces every node of the marked one.
// Commitments are drawn over up to five stretches with costs from a few
// values, and some costs as the sum of two others', so that ties and chains
// are common.
func propMarkChains(t *rapid.T) {
	S := rapid.IntRange(1, 5).Draw(t, "stretches")
	n := rapid.IntRange(1, 8).Draw(t, "commitments")
	limited := rapid.Bool().Draw(t, "limited")
	cs := make([]commit, n)
	for i := range cs {
		first := rapid.IntRange(0, S-1).Draw(t, "first")
		last := rapid.IntRange(first, S-1).Draw(t, "last")
		paid := rapid.IntRange(last, S-1).Draw(t, "paid")
		fixed := decimal.NewFromInt(int64(rapid.IntRange(0, 6).Draw(t, "fixed")))
		if i >= 2 && rapid.Bool().Draw(t, "sum") {
			a, b := rapid.IntRange(0, i-1).Draw(t, "a"), rapid.IntRange(0, i-1).Draw(t, "b")
			fixed = cs[a].fixed.Add(cs[b].fixed)
		}
		cs[i] = commit{first: first, last: last, paid: paid, fixed: fixed}
	}
	markChains(cs, limited)
	var kept []int
	for i, c := range cs {
		if !c.chain {
			kept = append(kept, i)
		}
	}
	if len(kept) == 0 {
		t.Fatalf("every commitment marked: %+v", cs)
	}
	for e, ce := range cs {
		if !ce.chain {
			continue
		}
		found := false
		for set := 1; set < 1<<len(kept) && !found; set++ {
			cover, hold := make([]int, S), make([]int, S)
			cost := decimal.Zero
			for b, i := range kept {
				if set&(1<<b) == 0 {
					continue
				}
				c := cs[i]
				cost = cost.Add(c.fixed)
				for s := c.first; s <= c.last; s++ {
					cover[s]++
				}
				for s := c.first; s <= c.paid; s++ {
					hold[s]++
				}
			}
			ok := cost.LessThanOrEqual(ce.fixed)
			for s := range S {
				if ce.covers(s) && cover[s] == 0 {
					ok = false
				}
				if limited && hold[s] > 0 && (!ce.holds(s) || hold[s] > 1) {
					ok = false
				}
			}
			found = ok
		}
		if !found {
			t.Fatalf("commitment %d marked, but no set of the unmarked ones replaces it (limited %v): %s", e, limited, showCommits(cs))
		}
	}
}

// showCommits lists commitments as first–last/paid: cost, marked with *.
func showCommits(cs []commit) string {
	var b strings.Builder
	for i, c := range cs {
		mark := ""
		if c.chain {
			mark = "*"
		}
		fmt.Fprintf(&b, " %d:%d–%d/%d:%s%s", i, c.first, c.last, c.paid, c.fixed, mark)
	}
	return b.String()
}

func TestMarkChains(t *testing.T) { rapid.Check(t, propMarkChains) }
func FuzzMarkChains(f *testing.F) { f.Fuzz(rapid.MakeFuzz(propMarkChains)) }

// TestMarkChainsQuarter: a quarter of monthly rentals at 3 a month, bought
// from its start as one commitment (9), as a month (3) and the two after
// (6), or from the second month (6): the quarter is the month and the two
// after, and is marked; the month and the two months are not.
func TestMarkChainsQuarter(t *testing.T) {
	d := decimal.NewFromInt
	cs := []commit{
		{first: 0, last: 1, paid: 1, fixed: d(9)},
		{first: 0, last: 0, paid: 0, fixed: d(3), count: 1},
		{first: 1, last: 1, paid: 1, fixed: d(6)},
	}
	for _, limited := range []bool{false, true} {
		c := append([]commit(nil), cs...)
		markChains(c, limited)
		if !c[0].chain || c[1].chain || c[2].chain {
			t.Errorf("limited %v: marked %v %v %v, want the quarter alone", limited, c[0].chain, c[1].chain, c[2].chain)
		}
	}
	// A month that pays for the next (a tail held against the stock) does
	// not chain with it where the stock binds.
	cs[1].paid = 1
	markChains(cs, true)
	if cs[0].chain {
		t.Errorf("the quarter is marked though its month holds the stock in the second stretch too")
	}
}
