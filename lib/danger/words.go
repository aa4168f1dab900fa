package danger

func at(list []string, i int) string {
	if i < len(list) {
		return list[i]
	}
	return ""
}
