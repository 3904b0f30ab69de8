package gputco_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// docPackages maps the package names the documentation writes before an
// identifier (`tco.Evaluate`, `lp.TestNetlib`) to their directories.
var docPackages = map[string]string{
	"gputco":    ".",
	"provider":  "provider",
	"workload":  "workload",
	"tco":       "tco",
	"placement": "placement",
	"lp":        "placement/lp",
	"merit":     "placement/internal/merit",
}

// goDecls is what one directory of Go files declares at top level: every
// name (functions, types, constants, variables), and for each type its
// methods and struct fields.
type goDecls struct {
	names   map[string]bool
	members map[string]map[string]bool
}

// parseDir parses the Go files of dir — the test files when tests is set,
// the others otherwise — and returns what they declare.
func parseDir(t *testing.T, dir string, tests bool) goDecls {
	t.Helper()
	d := goDecls{names: map[string]bool{}, members: map[string]map[string]bool{}}
	member := func(typ, name string) {
		if d.members[typ] == nil {
			d.members[typ] = map[string]bool{}
		}
		d.members[typ][name] = true
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") != tests {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			switch decl := decl.(type) {
			case *ast.FuncDecl:
				if decl.Recv == nil {
					d.names[decl.Name.Name] = true
					continue
				}
				typ := decl.Recv.List[0].Type
				if star, ok := typ.(*ast.StarExpr); ok {
					typ = star.X
				}
				if id, ok := typ.(*ast.Ident); ok {
					member(id.Name, decl.Name.Name)
				}
			case *ast.GenDecl:
				for _, spec := range decl.Specs {
					switch spec := spec.(type) {
					case *ast.TypeSpec:
						d.names[spec.Name.Name] = true
						if st, ok := spec.Type.(*ast.StructType); ok {
							for _, fld := range st.Fields.List {
								for _, n := range fld.Names {
									member(spec.Name.Name, n.Name)
								}
							}
						}
					case *ast.ValueSpec:
						for _, n := range spec.Names {
							d.names[n.Name] = true
						}
					}
				}
			}
		}
	}
	return d
}

// docTexts returns README.md and every note under docs/, by path.
func docTexts(t *testing.T) map[string]string {
	t.Helper()
	paths, err := filepath.Glob("docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, p := range append([]string{"README.md"}, paths...) {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out[p] = string(data)
	}
	return out
}

// codeSpans returns the inline code spans of a Markdown text, fenced blocks
// left out.
func codeSpans(text string) []string {
	var prose []string
	fenced := false
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, "```") {
			fenced = !fenced
			continue
		}
		if !fenced {
			prose = append(prose, l)
		}
	}
	var out []string
	for _, m := range regexp.MustCompile("`([^`\n]+)`").FindAllStringSubmatch(strings.Join(prose, "\n"), -1) {
		out = append(out, m[1])
	}
	return out
}

var (
	// qualified is `pkg.Name` or `pkg.Type.Member`, with an optional call.
	qualified = regexp.MustCompile(`^([a-z]+)\.([A-Z]\w*)(?:\.([A-Z]\w*))?(?:\(.*\))?$`)
	// testName is the name of a test, fuzz target, benchmark or example.
	testName = regexp.MustCompile(`^(Test|Fuzz|Benchmark|Example)`)
	// repoPath is a file or folder of the repository.
	repoPath = regexp.MustCompile(`^(\.ci|docs|examples|internal|placement|provider|tco|workload)/[\w./-]*$|^\w+(_test)?\.(go|md|mod)$`)
)

// TestDocsReferences: every name the README and the notes under docs/ cite
// exists. `pkg.TestX` (and FuzzX, BenchmarkX, ExampleX) must be a test
// function of package pkg's directory, so that a test the README names as
// the guard of an invariant cannot disappear unnoticed; `pkg.Name` and
// `pkg.Type.Member` must be declared by the package (members are methods
// and struct fields); a path must be a file or folder of the repository;
// and in a "Code:" list, `file.go` (`name`, ...) must declare each name.
func TestDocsReferences(t *testing.T) {
	libs, tests := map[string]goDecls{}, map[string]goDecls{}
	decls := func(cache map[string]goDecls, dir string, test bool) goDecls {
		if d, ok := cache[dir]; ok {
			return d
		}
		cache[dir] = parseDir(t, dir, test)
		return cache[dir]
	}
	checked := 0
	for path, text := range docTexts(t) {
		for _, span := range codeSpans(text) {
			if m := qualified.FindStringSubmatch(span); m != nil {
				dir, ok := docPackages[m[1]]
				if !ok {
					continue // another module's package, e.g. decimal.Decimal
				}
				checked++
				if testName.MatchString(m[2]) {
					if m[3] != "" || !decls(tests, dir, true).names[m[2]] {
						t.Errorf("%s cites %s: no test %s in %s/*_test.go", path, span, m[2], dir)
					}
					continue
				}
				d := decls(libs, dir, false)
				switch {
				case !d.names[m[2]]:
					t.Errorf("%s cites %s: package %s declares no %s", path, span, m[1], m[2])
				case m[3] != "" && !d.members[m[2]][m[3]]:
					t.Errorf("%s cites %s: %s.%s has no method or field %s", path, span, m[1], m[2], m[3])
				}
				continue
			}
			if repoPath.MatchString(span) && !strings.Contains(span, "*") {
				checked++
				if _, err := os.Stat(span); err != nil {
					t.Errorf("%s cites %s, which is not in the repository", path, span)
				}
			}
		}
		// Code: `tco/model.go` (`jobUsage`, `serviceUsage`), ...
		for _, m := range regexp.MustCompile("`([\\w/]+\\.go)` \\(([^)]*)\\)").FindAllStringSubmatch(text, -1) {
			d := parseFileDecls(t, m[1])
			for _, n := range regexp.MustCompile("`(\\w+)`").FindAllStringSubmatch(m[2], -1) {
				checked++
				if !d[n[1]] {
					t.Errorf("%s cites %s in %s, which declares no such name", path, n[1], m[1])
				}
			}
		}
	}
	if checked < 100 {
		t.Errorf("checked %d references: the patterns no longer match the documentation", checked)
	}
}

// parseFileDecls returns the names one Go file declares at top level,
// methods included.
func parseFileDecls(t *testing.T, path string) map[string]bool {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	out := map[string]bool{}
	for _, decl := range f.Decls {
		switch decl := decl.(type) {
		case *ast.FuncDecl:
			out[decl.Name.Name] = true
		case *ast.GenDecl:
			for _, spec := range decl.Specs {
				switch spec := spec.(type) {
				case *ast.TypeSpec:
					out[spec.Name.Name] = true
				case *ast.ValueSpec:
					for _, n := range spec.Names {
						out[n.Name] = true
					}
				}
			}
		}
	}
	return out
}

// TestREADMEImports: the README's sentence on what provider, workload and
// tco import from the module names every such import, so that it stays
// true as internal packages come and go.
func TestREADMEImports(t *testing.T) {
	sec := section(t, readme(t), "## Packages")
	i := strings.Index(sec, "`provider` and `workload` import nothing else")
	if i < 0 {
		t.Fatal("README's package section does not say what provider and workload import")
	}
	sentence := sec[i:]
	const module = "github.com/gputco/gputco/"
	for _, dir := range []string{"provider", "workload", "tco"} {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, path := range files {
			if strings.HasSuffix(path, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, imp := range f.Imports {
				p := strings.Trim(imp.Path.Value, `"`)
				if strings.HasPrefix(p, module) && !strings.Contains(sentence, "`"+strings.TrimPrefix(p, module)+"`") {
					t.Errorf("%s imports %s, which the README's sentence on imports does not name", path, p)
				}
			}
		}
	}
}

// slug is GitHub's anchor of a Markdown heading: lower case, spaces to
// hyphens, punctuation other than hyphens and underscores dropped.
func slug(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSpace(heading)) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r > 127:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// TestDocsLinks: every link of the README and the notes under docs/ to a
// file of the repository points to one that exists, and every #anchor to a
// heading of its target.
func TestDocsLinks(t *testing.T) {
	texts := docTexts(t)
	anchors := func(path string) map[string]bool {
		text, ok := texts[path]
		if !ok {
			data, err := os.ReadFile(path)
			if err != nil {
				return nil
			}
			text = string(data)
		}
		out := map[string]bool{}
		for _, m := range regexp.MustCompile(`(?m)^#+ (.+)$`).FindAllStringSubmatch(text, -1) {
			out[slug(m[1])] = true
		}
		return out
	}
	links := 0
	for path, text := range texts {
		for _, m := range regexp.MustCompile(`\]\(([^)\s]+)\)`).FindAllStringSubmatch(text, -1) {
			target, anchor, _ := strings.Cut(m[1], "#")
			if strings.Contains(target, "://") {
				continue
			}
			links++
			file := path
			if target != "" {
				file = filepath.Join(filepath.Dir(path), target)
				if _, err := os.Stat(file); err != nil {
					t.Errorf("%s links to %s, which does not exist", path, m[1])
					continue
				}
			}
			if anchor != "" && !anchors(file)[anchor] {
				t.Errorf("%s links to %s: %s has no heading #%s", path, m[1], file, anchor)
			}
		}
	}
	if links < 20 {
		t.Errorf("%d links checked: the pattern no longer matches the documentation", links)
	}
}
