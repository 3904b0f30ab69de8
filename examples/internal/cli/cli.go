// Package cli holds what the example programs share: the common flags
// (-catalog, -workloads, -format, -out), loading the user's catalog and
// workloads, money printed with its currency and thousands separators, the
// three output formats, one-line errors with exit status 2 for bad input,
// and PNG charts drawn with gonum.org/v1/plot.
//
// It is part of the examples, not of the library: no package of the library
// imports it, and gonum.org/v1/plot is used here and nowhere else.
package cli

import (
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/gputco/gputco/provider"
	"github.com/gputco/gputco/workload"
)

// Formats returns the values -format accepts.
func Formats() []string { return []string{"table", "csv", "json"} }

// Common are the flags every example takes.
type Common struct {
	// Catalog is the JSON catalog file (-catalog); "" means the embedded default.
	Catalog string
	// Workloads is the JSON scenario file (-workloads); "" means the
	// example's built-in scenario.
	Workloads string
	// Format is the main output's format (-format): table, csv or json.
	Format string
	// Out is the folder charts are written to (-out); "" means no charts.
	Out string
}

// Register adds the common flags to fs, storing into c.
func (c *Common) Register(fs *flag.FlagSet) {
	fs.StringVar(&c.Catalog, "catalog", "", "JSON catalog `file` instead of the embedded default")
	fs.StringVar(&c.Workloads, "workloads", "", "JSON scenario `file` instead of the built-in scenario")
	fs.StringVar(&c.Format, "format", "table", "output `format`: table, csv or json")
	fs.StringVar(&c.Out, "out", "", "`folder` to write charts (PNG) to; none without it")
}

// UsageError is a problem with the command line or an input file: Main
// prints it on one line and exits with status 2.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

// Usagef returns a UsageError with a formatted message.
func Usagef(format string, args ...any) error {
	return &UsageError{fmt.Errorf(format, args...)}
}

// Parse parses args into fs (whose flags include c's, registered with
// Register), rejects positional arguments and an unknown format, and creates
// the -out folder. Every failure is a *UsageError, except flag.ErrHelp
// (after printing the usage to stderr).
func (c *Common) Parse(fs *flag.FlagSet, args []string, stderr io.Writer) error {
	fs.SetOutput(io.Discard) // the flag package's own messages span lines
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.SetOutput(stderr)
			fmt.Fprintf(stderr, "Usage of %s:\n", fs.Name())
			fs.PrintDefaults()
			return err
		}
		return &UsageError{err}
	}
	if fs.NArg() > 0 {
		return Usagef("unexpected argument %q (flags only; -h lists them)", fs.Arg(0))
	}
	if !slices.Contains(Formats(), c.Format) {
		return Usagef("-format %q: want one of %s", c.Format, strings.Join(Formats(), ", "))
	}
	if c.Out != "" {
		if err := os.MkdirAll(c.Out, 0o755); err != nil {
			return &UsageError{fmt.Errorf("-out: %w", err)}
		}
	}
	return nil
}

// LoadCatalog returns the catalog named by -catalog, decoded with dec (the
// zero Decoder knows the built-in pricing modes), or the embedded default.
// A file that cannot be read or decoded is a *UsageError naming it.
func (c Common) LoadCatalog(dec provider.Decoder) (provider.Catalog, error) {
	if c.Catalog == "" {
		cat, err := provider.Default()
		if err != nil {
			return provider.Catalog{}, fmt.Errorf("embedded default catalog: %w", err)
		}
		return cat, nil
	}
	data, err := os.ReadFile(c.Catalog)
	if err != nil {
		return provider.Catalog{}, &UsageError{fmt.Errorf("-catalog: %w", err)}
	}
	cat, err := dec.Catalog(data)
	if err != nil {
		return provider.Catalog{}, &UsageError{fmt.Errorf("-catalog %s: %w", c.Catalog, err)}
	}
	return cat, nil
}

// LoadScenario returns the scenario named by -workloads, decoded with dec
// (the zero Decoder knows the built-in curve types) and validated, or builtin
// when the flag is empty. A file that cannot be read or decoded is a
// *UsageError naming it.
func (c Common) LoadScenario(dec workload.Decoder, builtin workload.Scenario) (workload.Scenario, error) {
	if c.Workloads == "" {
		return builtin, nil
	}
	data, err := os.ReadFile(c.Workloads)
	if err != nil {
		return workload.Scenario{}, &UsageError{fmt.Errorf("-workloads: %w", err)}
	}
	s, err := dec.Scenario(data)
	if err != nil {
		return workload.Scenario{}, &UsageError{fmt.Errorf("-workloads %s: %w", c.Workloads, err)}
	}
	return s, nil
}

// Main runs a command's run function with the process's arguments and
// streams and exits: status 0 on success or -h, 2 with a one-line message
// on a *UsageError, 1 with a one-line message on any other error. It never
// prints a stack trace.
func Main(name string, run func(stdout, stderr io.Writer, args []string) error) {
	os.Exit(Exit(name, os.Stderr, run(os.Stdout, os.Stderr, os.Args[1:])))
}

// Exit prints err on one line to stderr, prefixed with name, and returns the
// exit status Main uses for it.
func Exit(name string, stderr io.Writer, err error) int {
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return 0
	}
	fmt.Fprintf(stderr, "%s: %s\n", name, OneLine(err))
	var u *UsageError
	if errors.As(err, &u) {
		return 2
	}
	return 1
}

// OneLine returns err's message with line breaks (errors.Join puts one
// between problems) replaced by "; ".
func OneLine(err error) string {
	lines := strings.FieldsFunc(err.Error(), func(r rune) bool { return r == '\n' || r == '\r' })
	return strings.Join(lines, "; ")
}

// Output is a command's main result in the three formats: a table for
// people, rows for spreadsheets, a value for programs.
type Output struct {
	// Table writes the human-readable form.
	Table func(w io.Writer) error
	// Header and Rows are the CSV form (money as plain decimals).
	Header []string
	Rows   [][]string
	// JSON is marshalled, indented, for the json format.
	JSON any
}

// Write writes o to w in the -format chosen.
func (c Common) Write(w io.Writer, o Output) error {
	switch c.Format {
	case "csv":
		cw := csv.NewWriter(w)
		if err := cw.Write(o.Header); err != nil {
			return err
		}
		if err := cw.WriteAll(o.Rows); err != nil {
			return err
		}
		return cw.Error()
	case "json":
		b, err := json.MarshalIndent(o.JSON, "", "  ")
		if err != nil {
			return err
		}
		_, err = w.Write(append(b, '\n'))
		return err
	default:
		return o.Table(w)
	}
}
