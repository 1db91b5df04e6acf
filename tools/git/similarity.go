package git

import "sort"

// Rename detection by content, as git's diffcore-rename estimates it: both
// files are cut into chunks (a line, or 64 bytes), chunks are hashed, and
// the score is the bytes of the source found in the destination over the
// bigger size, out of maxScore. A pair scoring at least minRenameScore
// (50%) is a rename.

const (
	maxScore       = 60000
	minRenameScore = 30000
	spanHashBase   = 107927
	// maxRenameCandidates bounds the pairs compared (git's
	// diff.renameLimit is 1000 sources by destinations).
	maxRenameCandidates = 1000 * 1000
)

func spanHashes(b []byte, text bool) map[uint32]int {
	out := map[uint32]int{}
	var a1, a2 uint32
	n := 0
	for i := 0; i < len(b); i++ {
		c := uint32(b[i])
		if text && c == '\r' && i+1 < len(b) && b[i+1] == '\n' {
			continue
		}
		old := a1
		a1 = (a1 << 7) ^ (a2 >> 25)
		a2 = (a2 << 7) ^ (old >> 25)
		a1 += c
		n++
		if n < 64 && c != '\n' {
			continue
		}
		out[(a1+a2*0x61)%spanHashBase] += n
		n, a1, a2 = 0, 0, 0
	}
	if n > 0 {
		out[(a1+a2*0x61)%spanHashBase] += n
	}
	return out
}

// similarity is git's estimate_similarity of src and dst (0..maxScore).
func similarity(src, dst []byte) int {
	maxSize, baseSize := len(src), len(dst)
	if baseSize > maxSize {
		maxSize, baseSize = baseSize, maxSize
	}
	if maxSize == 0 {
		return 0
	}
	delta := maxSize - baseSize
	if int64(maxSize)*(maxScore-minRenameScore) < int64(delta)*maxScore {
		return 0
	}
	sh := spanHashes(src, !isBinary(src))
	dh := spanHashes(dst, !isBinary(dst))
	copied := 0
	for h, s := range sh {
		d, ok := dh[h]
		if !ok {
			continue
		}
		if s < d {
			copied += s
		} else {
			copied += d
		}
	}
	return int(int64(copied) * maxScore / int64(maxSize))
}

// renameCand is a possible rename: indexes into the deleted and added
// lists and its score.
type renameCand struct{ src, dst, score int }

// pairRenames pairs deleted and added files by content, best scores first,
// each file used once; exact matches are expected to be paired already.
func pairRenames(srcs, dsts [][]byte) []renameCand {
	if len(srcs)*len(dsts) > maxRenameCandidates {
		return nil
	}
	var cands []renameCand
	for j, d := range dsts {
		for i, s := range srcs {
			if sc := similarity(s, d); sc >= minRenameScore {
				cands = append(cands, renameCand{i, j, sc})
			}
		}
	}
	sort.SliceStable(cands, func(a, b int) bool { return cands[a].score > cands[b].score })
	usedS, usedD := map[int]bool{}, map[int]bool{}
	var out []renameCand
	for _, c := range cands {
		if usedS[c.src] || usedD[c.dst] {
			continue
		}
		usedS[c.src], usedD[c.dst] = true, true
		out = append(out, c)
	}
	return out
}
