package server

import "fmt"

// Describe is the line a server announces itself with: the model name
// clients send, the model and GPUs it simulates, and its engine with
// defaults applied.
func (s *Server) Describe() string {
	hw, ec := s.cfg.Hardware, s.engCfg
	prefix := "on"
	if !ec.EnablePrefixCaching {
		prefix = "off"
	}
	return fmt.Sprintf("serving %q: %s on %d×%s, %s weights, KV cache %d tokens in %s (%d blocks of %d), max context %d, max %d seqs and %d tokens per step, prefix caching %s, scheduling as %s",
		s.Model(), hw.Model.Name, hw.TP, hw.GPU.Name, hw.Weights,
		ec.NumBlocks*ec.BlockSize, hw.KV, ec.NumBlocks, ec.BlockSize, ec.MaxModelLen, ec.MaxNumSeqs, ec.MaxNumBatchedTokens, prefix, ec.Policy)
}
