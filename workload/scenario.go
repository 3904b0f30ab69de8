package workload

import (
	"encoding/json"
	"fmt"
	"io"
)

// Scenario is a named list of workloads, the unit that is loaded, saved and
// handed to the placement solver. The zero value is an empty scenario.
type Scenario struct {
	// Name describes the scenario; optional.
	Name string `json:"name,omitempty"`
	// Workloads are the workloads; names must be unique.
	Workloads []Workload `json:"workloads"`
}

// Validate returns the errors.Join of every problem of every workload (field
// paths prefixed "workloads[i]") and of duplicate workload names (nil if none).
func (s Scenario) Validate() error {
	var errs problemList
	seen := make(map[string]int, len(s.Workloads))
	for i, w := range s.Workloads {
		prefix := fmt.Sprintf("workloads[%d]", i)
		errs.addAll(prefixErrors(prefix, w.Validate()))
		if j, dup := seen[w.Name]; dup && w.Name != "" {
			errs.add(fieldErr(prefix+".name", w.Name, ErrDuplicate, fmt.Sprintf("also workloads[%d]", j)))
		} else {
			seen[w.Name] = i
		}
	}
	return errs.err()
}

// UnmarshalJSON decodes a scenario, rejecting unknown fields; it does not validate.
func (s *Scenario) UnmarshalJSON(data []byte) error {
	return s.decode(data, Decoder{})
}

// decode is UnmarshalJSON with the curve types of d; a workload's problem
// is named under "workloads[i]".
func (s *Scenario) decode(data []byte, d Decoder) error {
	var v struct {
		Name      string            `json:"name"`
		Workloads []json.RawMessage `json:"workloads"`
	}
	if err := strictUnmarshal(data, &v); err != nil {
		return err
	}
	out := Scenario{Name: v.Name, Workloads: make([]Workload, len(v.Workloads))}
	if v.Workloads == nil {
		out.Workloads = nil
	}
	for i, raw := range v.Workloads {
		if err := out.Workloads[i].decode(raw, d); err != nil {
			if _, ok := err.(*FieldError); ok {
				return under(fmt.Sprintf("workloads[%d]", i), err)
			}
			return fmt.Errorf("workloads[%d]: %w", i, err)
		}
	}
	*s = out
	return nil
}

// ReadScenario decodes a scenario from JSON and validates it.
func ReadScenario(r io.Reader) (Scenario, error) {
	b, err := readAll(r)
	if err != nil {
		return Scenario{}, err
	}
	var s Scenario
	if err := strictUnmarshal(b, &s); err != nil {
		return Scenario{}, wrapSyntax(err)
	}
	if err := s.Validate(); err != nil {
		return Scenario{}, err
	}
	return s, nil
}

// WriteScenario validates s and writes it as indented JSON.
func WriteScenario(w io.Writer, s Scenario) error {
	if err := s.Validate(); err != nil {
		return err
	}
	return writeJSON(w, s)
}
