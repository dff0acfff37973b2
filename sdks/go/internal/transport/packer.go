package transport

// packCarriers greedily packs carriers, in order, into requests bounded by carrier count and by exact encoded
// request size (docs/sdk-transport.md, rule 3). It returns groups of indexes; a carrier that alone exceeds the
// size gets a group of its own.
func packCarriers(sizes []int, maxCarriers, maxBytes int, requestSize func(carrierBytes, count int) int) [][]int {
	var groups [][]int
	var current []int
	bytes := 0
	for i, size := range sizes {
		fits := len(current) < maxCarriers && requestSize(bytes+size, len(current)+1) <= maxBytes
		if !fits && len(current) > 0 {
			groups = append(groups, current)
			current, bytes = nil, 0
		}
		current = append(current, i)
		bytes += size
	}
	if len(current) > 0 {
		groups = append(groups, current)
	}
	return groups
}
