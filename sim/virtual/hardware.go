package virtual

import "surge/sim"

// ConfigFor returns a Config serving on hw as a vLLM V1 server with default
// settings would: the KV cache holds hw.KVBlocks(0.9) blocks, MaxModelLen
// is the model's context capped at what the cache holds, prefix caching is
// on, and steps cost what sim.NewCostModel with DefaultCostParams says. It
// fails when the weights leave no room for a KV cache.
func ConfigFor(hw sim.Hardware) (Config, error) {
	blocks := hw.KVBlocks(0)
	if blocks <= 0 {
		return Config{}, hw.FitError(0)
	}
	return Config{
		Engine: sim.EngineConfig{
			BlockSize:           sim.BlockTokens,
			NumBlocks:           blocks,
			MaxModelLen:         min(hw.MaxContext(), blocks*sim.BlockTokens),
			EnablePrefixCaching: true,
		},
		Cost: sim.NewCostModel(hw, sim.CostParams{}),
	}, nil
}
