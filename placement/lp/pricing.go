package lp

// This file holds the row-wise copy of the non-basic structural columns
// that the pricing of the dual simplex runs over: each row's entries are
// split into the non-basic columns nbIndex/nbValue[nbStart[i]:nbEnd[i]]
// followed by the basic ones up to the next row's start, so that pricing a
// row touches only non-basic columns. It is kept up to date at every basis
// change and synchronised with the statuses at every factorisation.

// syncNonbasic brings the copy up to date with the basic statuses of the
// structurals, building it on first use.
func (s *simplex) syncNonbasic() {
	if len(s.nbBasic) != s.n {
		s.buildNonbasic()
		return
	}
	for j := 0; j < s.n; j++ {
		if b := s.state[j] == basic; b != s.nbBasic[j] {
			if b {
				s.nbEnter(j)
			} else {
				s.nbLeave(j)
			}
		}
	}
}

// buildNonbasic sorts each row's entries into non-basic and basic columns.
func (s *simplex) buildNonbasic() {
	m := s.m
	nnz := len(s.aIndex)
	if len(s.nbIndex) != nnz || len(s.nbStart) != m+1 {
		s.nbStart = append([]int(nil), s.arStart...)
		s.nbEnd = make([]int, m)
		s.nbIndex = make([]int, nnz)
		s.nbValue = make([]float64, nnz)
		s.nbEnt = make([]int, nnz)
		s.nbPos = make([]int, nnz)
		s.nbBasic = make([]bool, s.n)
	}
	for j := 0; j < s.n; j++ {
		s.nbBasic[j] = s.state[j] == basic
	}
	fill := s.nbEnd
	copy(fill, s.nbStart[:m])
	for j := 0; j < s.n; j++ {
		if s.state[j] == basic {
			continue
		}
		s.nbAppend(j, fill)
	}
	for j := 0; j < s.n; j++ {
		if s.state[j] != basic {
			continue
		}
		// Basic entries go after the non-basic ones; nbEnd is set below.
		s.nbAppend(j, fill)
	}
	// fill now holds each row's end; recount the non-basic parts.
	copy(fill, s.nbStart[:m])
	for j := 0; j < s.n; j++ {
		if s.state[j] == basic {
			continue
		}
		for k := s.aStart[j]; k < s.aStart[j+1]; k++ {
			fill[s.aIndex[k]]++
		}
	}
}

// nbAppend puts column j's entries at the fill positions of their rows.
func (s *simplex) nbAppend(j int, fill []int) {
	for k := s.aStart[j]; k < s.aStart[j+1]; k++ {
		i := s.aIndex[k]
		p := fill[i]
		fill[i]++
		s.nbIndex[p] = j
		s.nbValue[p] = s.aValue[k]
		s.nbEnt[p] = k
		s.nbPos[k] = p
	}
}

// nbSwap exchanges the entries at positions p and p2 of the copy.
func (s *simplex) nbSwap(p, p2 int) {
	if p == p2 {
		return
	}
	s.nbIndex[p], s.nbIndex[p2] = s.nbIndex[p2], s.nbIndex[p]
	s.nbValue[p], s.nbValue[p2] = s.nbValue[p2], s.nbValue[p]
	s.nbEnt[p], s.nbEnt[p2] = s.nbEnt[p2], s.nbEnt[p]
	s.nbPos[s.nbEnt[p]] = p
	s.nbPos[s.nbEnt[p2]] = p2
}

// nbBasisChange records that variable q entered the basis and lv left it.
func (s *simplex) nbBasisChange(q, lv int) {
	if q < s.n {
		s.nbEnter(q)
	}
	if lv < s.n {
		s.nbLeave(lv)
	}
}

// nbEnter moves structural j's entries to the basic parts of their rows.
func (s *simplex) nbEnter(j int) {
	for k := s.aStart[j]; k < s.aStart[j+1]; k++ {
		i := s.aIndex[k]
		s.nbEnd[i]--
		s.nbSwap(s.nbPos[k], s.nbEnd[i])
	}
	s.nbBasic[j] = true
}

// nbLeave moves structural j's entries to the non-basic parts of their rows.
func (s *simplex) nbLeave(j int) {
	for k := s.aStart[j]; k < s.aStart[j+1]; k++ {
		i := s.aIndex[k]
		s.nbSwap(s.nbPos[k], s.nbEnd[i])
		s.nbEnd[i]++
	}
	s.nbBasic[j] = false
}
