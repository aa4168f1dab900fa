package spell

import "strings"

// Nearest returns the known name that name most likely misspells: the same but for case, or
// within two edits (one for names of four bytes or fewer), where two neighbouring letters
// swapped count as one edit ("unistall", "tial"); "" if none is that close.
func Nearest(name string, known []string) string {
	best, dist := "", 3
	if len(name) <= 4 {
		dist = 2
	}
	for _, k := range known {
		if strings.EqualFold(k, name) {
			return k
		}
		if d := swaps(strings.ToLower(name), strings.ToLower(k)); d < dist {
			best, dist = k, d
		}
	}
	return best
}

// swaps is the distance of Distance where swapping two neighbouring bytes is one edit (the
// optimal string alignment distance).
func swaps(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}
