package gputco_test

import (
	"os"
	"regexp"
	"testing"
)

// TestREADMEPackageTable: the README's package table lists each path once,
// and every path it lists exists.
func TestREADMEPackageTable(t *testing.T) {
	data, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := regexp.MustCompile("(?m)^\\| `([a-z/]+)` \\|").FindAllStringSubmatch(string(data), -1)
	if len(rows) == 0 {
		t.Fatal("no package table in README.md")
	}
	seen := map[string]bool{}
	for _, m := range rows {
		path := m[1]
		if seen[path] {
			t.Errorf("README lists %s twice", path)
		}
		seen[path] = true
		if fi, err := os.Stat(path); err != nil || !fi.IsDir() {
			t.Errorf("README lists %s, which is not a directory of the module", path)
		}
	}
}
