package danger

func contains(list []string, s string) bool {
	for _, l := range list {
		if l == s {
			return true
		}
	}
	return false
}

func at(list []string, i int) string {
	if i < len(list) {
		return list[i]
	}
	return ""
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
