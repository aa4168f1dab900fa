package main

import (
	"fmt"
	"io"
	"strings"
)

// writeDiff prints the lines that change from before to after, unified-diff style with two
// lines of context: what a dry run would do to a file, shown rather than described.
func writeDiff(out io.Writer, name string, before, after []byte) {
	a, b := lines(before), lines(after)
	// lcs[i][j] is the length of the longest common subsequence of a[i:] and b[j:]; settings
	// files are small enough for the quadratic table.
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	type line struct {
		op   byte
		text string
	}
	var ops []line
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			ops = append(ops, line{' ', a[i]})
			i, j = i+1, j+1
		case j < len(b) && (i == len(a) || lcs[i][j+1] >= lcs[i+1][j]):
			ops = append(ops, line{'+', b[j]})
			j++
		default:
			ops = append(ops, line{'-', a[i]})
			i++
		}
	}
	const context = 2
	show := make([]bool, len(ops))
	changed := false
	for k, l := range ops {
		if l.op == ' ' {
			continue
		}
		changed = true
		for c := max(0, k-context); c <= min(len(ops)-1, k+context); c++ {
			show[c] = true
		}
	}
	if !changed {
		return
	}
	fmt.Fprintf(out, "--- %s\n+++ %s (after)\n", name, name)
	for k, l := range ops {
		switch {
		case show[k]:
			fmt.Fprintf(out, "%c %s\n", l.op, l.text)
		case k > 0 && show[k-1]:
			fmt.Fprintln(out, "  ...")
		}
	}
}

func lines(b []byte) []string {
	s := strings.TrimSuffix(strings.ReplaceAll(string(b), "\r\n", "\n"), "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}
