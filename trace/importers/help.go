package importers

// FormatHelp describes the formats surge imports, every one of Formats
// in its order, and how each replays: for a command line's help.
const FormatHelp = `Formats (detected from each file's first line, or forced with --format):
  azure     Azure LLM inference traces, 2023 and 2024 CSV
            (TIMESTAMP,ContextTokens,GeneratedTokens)
  vidur     Vidur's splitwise_*.csv (arrived_at,num_prefill_tokens,...)
  mooncake  Mooncake JSON Lines (timestamp ms, input_length,
            output_length, hash_ids of 512-token blocks)
  weka      WEKA agentic conversations, a JSON file each
  weka-csv  the same conversations flattened to one CSV, a row per request
            (with sub-agent streams; block counts instead of hash ids)
  weka-summary  the WEKA per-conversation summary CSV (trace_id,models,
            ...,first_in,last_in,duration_s): each conversation's main
            stream, prompts grown evenly from first to last, answers
            --lengths OUT tokens (no requests are recorded)
  sharegpt  ShareGPT conversations, a JSON array of {id, conversations:
            [{from, value}]}: real text, a turn per answered message
  burstgpt  BurstGPT CSV (Timestamp,Model,Request tokens,Response tokens,
            Total tokens,Log Type), a client per model and log type
  servegen  ServeGen per-client window CSV (no header; start,rate,cv,
            pattern,shape,scale): requests generated per 10-minute window
            (--seed), lengths from the chunk-N-dataset.json beside it
  csv,      any CSV with a header, or JSON Lines, read by --columns
  jsonl     at=F,input=F,output=F[,client=F][,session=F][,category=F]
            (times in --time-unit s, ms, us, ns or iso); rows of a session
            become the turns of a conversation, waits the gaps between
            them; a category (task type) is kept for fit's query mix
azure, vidur, mooncake and burstgpt become open-loop requests at their
offsets from the file's first row, one client per file (burstgpt: per
model and log type); weka conversations (and summaries) run closed loop, --concurrency at
a time, think times divided by --speed. ShareGPT records no times: its
conversations start at --rate per second (Poisson, --seed; or --arrivals
even), or without --rate run closed loop; --think waits between turns.`
