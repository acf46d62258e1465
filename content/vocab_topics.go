package content

// topic is the vocabulary of one subject that sentence templates draw from.
// Every agent can sensibly take every verb, and every verb every thing, so
// any combination a template makes reads as plausible English.
type topic struct {
	name    string      // noun phrase for heads: "Write a report on <name>."
	agents  []string    // who acts, lower case unless a proper noun
	things  []string    // what is acted on: projects, policies, objects
	places  []string    // where
	verbs   [][2]string // topic actions {past, base}: {"funded", "fund"}
	metrics []string    // quantities that rise and fall
}

// topics is the built-in vocabulary of prose prompts. Changing it changes
// the content hash (Synth.Hash), as it should.
func topics() []topic {
	return []topic{
		{
			name:    "urban transport",
			agents:  []string{"the city council", "the transit agency", "local commuters", "urban planners", "the mayor", "cycling groups", "bus drivers", "a team of engineers"},
			things:  []string{"the new tram line", "the bike sharing scheme", "a night bus service", "the central station upgrade", "the congestion charge", "the electric bus fleet", "the parking reform", "the ring road project"},
			places:  []string{"Lisbon", "Denver", "Osaka", "Leeds", "the harbor district", "the northern suburbs", "the old town"},
			verbs:   [][2]string{{"funded", "fund"}, {"expanded", "expand"}, {"delayed", "delay"}, {"redesigned", "redesign"}},
			metrics: []string{"daily ridership", "the average commute time", "fare revenue", "the number of cyclists", "traffic congestion", "air pollution near schools"},
		},
		{
			name:    "coral reef conservation",
			agents:  []string{"marine biologists", "the park authority", "local divers", "fishing cooperatives", "conservation groups", "the coastal agency", "a university research team"},
			things:  []string{"the reef restoration project", "the ban on anchoring", "a coral nursery", "the new marine reserve", "the water quality program", "the limits on tourist boats"},
			places:  []string{"Belize", "the Red Sea coast", "Okinawa", "the Florida Keys", "Palau", "the eastern lagoon"},
			verbs:   [][2]string{{"monitored", "monitor"}, {"funded", "fund"}, {"expanded", "expand"}, {"evaluated", "evaluate"}},
			metrics: []string{"coral cover", "the average water temperature", "the number of reef fish", "the rate of bleaching", "visitor numbers"},
		},
		{
			name:    "solar energy",
			agents:  []string{"the utility company", "homeowners", "the energy regulator", "a group of investors", "local installers", "the grid operator", "the state government"},
			things:  []string{"the rooftop solar program", "a new battery plant", "the feed-in tariff", "the solar farm proposal", "the grid upgrade", "the net metering rules"},
			places:  []string{"California", "southern Spain", "Rajasthan", "Queensland", "the Atacama region", "Bavaria"},
			verbs:   [][2]string{{"approved", "approve"}, {"funded", "fund"}, {"expanded", "expand"}, {"revised", "revise"}},
			metrics: []string{"installed capacity", "electricity prices", "the share of solar power", "installation costs", "the number of grid outages"},
		},
		{
			name:    "public libraries",
			agents:  []string{"the library board", "volunteers", "the city librarian", "parents", "local authors", "the county council", "a group of students"},
			things:  []string{"the late fee policy", "the new reading room", "the digital lending service", "the summer reading program", "the mobile library van", "the extended opening hours"},
			places:  []string{"Helsinki", "Portland", "the east branch", "Cork", "the riverside neighborhood", "Adelaide"},
			verbs:   [][2]string{{"launched", "launch"}, {"funded", "fund"}, {"announced", "announce"}, {"promoted", "promote"}},
			metrics: []string{"the number of loans", "membership", "attendance at events", "the annual budget", "the number of e-book downloads"},
		},
		{
			name:    "space exploration",
			agents:  []string{"the space agency", "a private launch company", "mission engineers", "planetary scientists", "the flight director", "an international consortium", "amateur astronomers"},
			things:  []string{"the lunar lander", "the Mars sample mission", "the new heavy rocket", "the orbital telescope", "the asteroid survey", "the reusable first stage"},
			places:  []string{"Florida", "French Guiana", "Kazakhstan", "New Zealand", "the mission control center", "the Pacific test range"},
			verbs:   [][2]string{{"tested", "test"}, {"launched", "launch"}, {"redesigned", "redesign"}, {"postponed", "postpone"}},
			metrics: []string{"launch costs", "the mission budget", "the number of launches", "data returned per orbit", "the failure rate"},
		},
		{
			name:    "coffee farming",
			agents:  []string{"smallholder farmers", "the growers cooperative", "coffee buyers", "agronomists", "the export board", "a roasting company", "the ministry of agriculture"},
			things:  []string{"the shade tree program", "a new drying facility", "the fair price scheme", "the disease resistant variety", "the irrigation project", "the direct trade contract"},
			places:  []string{"Ethiopia", "Colombia", "Vietnam", "the Kona coast", "Huila", "the western highlands"},
			verbs:   [][2]string{{"adopted", "adopt"}, {"funded", "fund"}, {"tested", "test"}, {"expanded", "expand"}},
			metrics: []string{"the average yield", "export volumes", "the farm gate price", "the area under cultivation", "losses to leaf rust"},
		},
		{
			name:    "public health",
			agents:  []string{"the health ministry", "family doctors", "hospital managers", "epidemiologists", "the nurses union", "patient groups", "the regional health board"},
			things:  []string{"the vaccination campaign", "the new screening program", "the walk-in clinic", "the smoking ban", "the school meals policy", "the mental health hotline"},
			places:  []string{"Scotland", "Ontario", "Kerala", "the southern districts", "Rotterdam", "rural areas"},
			verbs:   [][2]string{{"launched", "launch"}, {"funded", "fund"}, {"extended", "extend"}, {"evaluated", "evaluate"}},
			metrics: []string{"waiting times", "the vaccination rate", "hospital admissions", "the number of smokers", "the cost per patient"},
		},
		{
			name:    "remote work",
			agents:  []string{"the management team", "employees", "the human resources department", "team leads", "the works council", "new hires", "the chief executive"},
			things:  []string{"the hybrid work policy", "the four-day week trial", "the new collaboration software", "the home office allowance", "the return to office plan", "the flexible hours scheme"},
			places:  []string{"the Berlin office", "the London headquarters", "the Singapore branch", "the support center", "the engineering department", "Toronto"},
			verbs:   [][2]string{{"introduced", "introduce"}, {"piloted", "pilot"}, {"revised", "revise"}, {"extended", "extend"}},
			metrics: []string{"staff turnover", "office attendance", "the number of meetings", "employee satisfaction", "travel costs"},
		},
		{
			name:    "volcano monitoring",
			agents:  []string{"volcanologists", "the civil protection agency", "the geological survey", "village leaders", "emergency planners", "a team of seismologists"},
			things:  []string{"the early warning system", "the evacuation plan", "the new seismic network", "the gas monitoring station", "the exclusion zone", "the drone survey"},
			places:  []string{"Iceland", "Sicily", "the Kamchatka peninsula", "Hawaii", "the Andes", "the island of Java"},
			verbs:   [][2]string{{"tested", "test"}, {"upgraded", "upgrade"}, {"expanded", "expand"}, {"revised", "revise"}},
			metrics: []string{"sulfur dioxide emissions", "the number of small earthquakes", "ground deformation", "the response time", "ash fall"},
		},
		{
			name:    "jazz history",
			agents:  []string{"music historians", "the festival organizers", "record collectors", "a documentary crew", "the city archive", "young musicians", "club owners"},
			things:  []string{"the oral history project", "the restored recordings", "the new jazz museum", "the archive of concert posters", "the tribute album", "the street parade"},
			places:  []string{"New Orleans", "Chicago", "Harlem", "Paris", "Kansas City", "the French Quarter"},
			verbs:   [][2]string{{"funded", "fund"}, {"promoted", "promote"}, {"launched", "launch"}, {"announced", "announce"}},
			metrics: []string{"ticket sales", "the number of visitors", "streaming numbers", "the size of the archive", "donations"},
		},
		{
			name:    "bridge engineering",
			agents:  []string{"structural engineers", "the highway department", "the construction firm", "safety inspectors", "the port authority", "local residents", "the design team"},
			things:  []string{"the suspension bridge retrofit", "the new pedestrian crossing", "the steel truss replacement", "the load testing program", "the cable inspection", "the toll system"},
			places:  []string{"San Francisco", "Genoa", "Istanbul", "the river delta", "Glasgow", "the coastal highway"},
			verbs:   [][2]string{{"inspected", "inspect"}, {"redesigned", "redesign"}, {"funded", "fund"}, {"completed", "complete"}},
			metrics: []string{"maintenance costs", "daily traffic", "corrosion damage", "the project budget", "construction delays"},
		},
		{
			name:    "rainforest protection",
			agents:  []string{"indigenous communities", "forest rangers", "the environment ministry", "timber companies", "ecologists", "international donors", "satellite analysts"},
			things:  []string{"the logging moratorium", "the reforestation program", "the carbon credit scheme", "the new national park", "the fire patrols", "the land title reform"},
			places:  []string{"the Amazon basin", "Borneo", "the Congo basin", "Costa Rica", "Papua New Guinea", "the Atlantic Forest"},
			verbs:   [][2]string{{"announced", "announce"}, {"funded", "fund"}, {"expanded", "expand"}, {"monitored", "monitor"}},
			metrics: []string{"the rate of deforestation", "tree cover", "the number of fires", "carbon emissions", "illegal logging"},
		},
		{
			name:    "bird migration",
			agents:  []string{"ornithologists", "bird watchers", "the wildlife service", "wind farm operators", "a citizen science network", "wetland managers"},
			things:  []string{"the tagging study", "the wetland restoration", "the radar tracking project", "the hunting restrictions", "the bird count", "the turbine shutdown rule"},
			places:  []string{"the Strait of Gibraltar", "the Wadden Sea", "Cape May", "the Yellow Sea", "Lake Victoria", "the Baltic coast"},
			verbs:   [][2]string{{"monitored", "monitor"}, {"expanded", "expand"}, {"funded", "fund"}, {"extended", "extend"}},
			metrics: []string{"the number of migrating birds", "stopover times", "nesting success", "collision deaths", "the size of the flocks"},
		},
		{
			name:    "ancient Rome",
			agents:  []string{"archaeologists", "classical historians", "the museum curators", "the excavation team", "conservation architects", "the heritage office"},
			things:  []string{"the newly found villa", "the mosaic floor", "the old aqueduct", "the coin hoard", "the theater ruins", "the bath complex"},
			places:  []string{"Pompeii", "Ostia", "the Forum", "Hadrian's Wall", "North Africa", "the Appian Way"},
			verbs:   [][2]string{{"excavated", "excavate"}, {"restored", "restore"}, {"documented", "document"}, {"surveyed", "survey"}},
			metrics: []string{"visitor numbers", "the excavation budget", "the number of finds", "the area excavated", "restoration costs"},
		},
		{
			name:    "competitive chess",
			agents:  []string{"the national federation", "grandmasters", "tournament organizers", "junior players", "chess coaches", "the arbiters", "online platforms"},
			things:  []string{"the new rating system", "the rapid tournament", "the anti-cheating policy", "the school chess program", "the prize fund", "the broadcast of the final"},
			places:  []string{"Wijk aan Zee", "Saint Louis", "Chennai", "Reykjavik", "the regional club", "Madrid"},
			verbs:   [][2]string{{"announced", "announce"}, {"promoted", "promote"}, {"revised", "revise"}, {"introduced", "introduce"}},
			metrics: []string{"the number of registered players", "online viewership", "average ratings", "prize money", "the number of draws"},
		},
		{
			name:    "cybersecurity",
			agents:  []string{"the security team", "the chief information officer", "external auditors", "system administrators", "a group of researchers", "the incident response team"},
			things:  []string{"the password policy", "the new firewall", "the phishing training", "the bug bounty program", "the backup strategy", "the two-factor login"},
			places:  []string{"the data center", "the finance department", "the cloud platform", "the branch offices", "the customer portal", "the payroll system"},
			verbs:   [][2]string{{"deployed", "deploy"}, {"audited", "audit"}, {"tightened", "tighten"}, {"tested", "test"}},
			metrics: []string{"the number of incidents", "the time to patch", "phishing click rates", "system downtime", "the security budget"},
		},
		{
			name:    "electric cars",
			agents:  []string{"car makers", "the transport ministry", "fleet managers", "early adopters", "charging network operators", "consumer groups", "battery suppliers"},
			things:  []string{"the purchase subsidy", "the fast charging network", "the battery recycling plant", "the new compact model", "the emissions standard", "the road tax exemption"},
			places:  []string{"Norway", "the Netherlands", "Shenzhen", "Michigan", "the motorway corridor", "South Korea"},
			verbs:   [][2]string{{"introduced", "introduce"}, {"expanded", "expand"}, {"funded", "fund"}, {"delayed", "delay"}},
			metrics: []string{"sales of electric cars", "battery prices", "the number of chargers", "average range", "charging times"},
		},
		{
			name:    "urban gardening",
			agents:  []string{"community gardeners", "the parks department", "local schools", "neighborhood associations", "a food bank", "landscape designers"},
			things:  []string{"the rooftop garden", "the allotment waiting list", "the composting program", "the seed library", "the rainwater scheme", "the vacant lot project"},
			places:  []string{"Detroit", "Havana", "Montreal", "the south side", "Bristol", "Kyoto"},
			verbs:   [][2]string{{"launched", "launch"}, {"expanded", "expand"}, {"funded", "fund"}, {"organized", "organize"}},
			metrics: []string{"the harvest", "the number of plots", "volunteer hours", "the amount of compost", "water use"},
		},
		{
			name:    "water supply",
			agents:  []string{"the water utility", "hydrologists", "the regional authority", "farmers", "environmental groups", "the pipeline contractor", "household consumers"},
			things:  []string{"the desalination plant", "the leak detection program", "the new reservoir", "the water meter rollout", "the drought restrictions", "the groundwater study"},
			places:  []string{"Cape Town", "Perth", "Arizona", "the valley towns", "Cyprus", "Chennai"},
			verbs:   [][2]string{{"announced", "announce"}, {"funded", "fund"}, {"expanded", "expand"}, {"delayed", "delay"}},
			metrics: []string{"daily water use", "reservoir levels", "leakage", "water prices", "groundwater levels"},
		},
		{
			name:    "tourism",
			agents:  []string{"the tourism board", "hotel owners", "tour operators", "residents", "the airport authority", "travel writers", "cruise companies"},
			things:  []string{"the tourist tax", "the new visitor center", "the cruise ship limit", "the heritage trail", "the short-term rental rules", "the off-season campaign"},
			places:  []string{"Venice", "Dubrovnik", "Bali", "the Scottish Highlands", "Barcelona", "the coastal villages"},
			verbs:   [][2]string{{"introduced", "introduce"}, {"promoted", "promote"}, {"revised", "revise"}, {"funded", "fund"}},
			metrics: []string{"visitor numbers", "hotel occupancy", "average spending per visitor", "rents in the center", "the length of stays"},
		},
		{
			name:    "online education",
			agents:  []string{"the university", "course designers", "online learners", "teaching assistants", "the accreditation body", "education researchers"},
			things:  []string{"the free statistics course", "the new peer review system", "the mobile learning app", "the exam proctoring tool", "the certificate program", "the discussion forum"},
			places:  []string{"Nairobi", "Bangalore", "Mexico City", "the evening program", "rural schools", "Manila"},
			verbs:   [][2]string{{"launched", "launch"}, {"redesigned", "redesign"}, {"expanded", "expand"}, {"evaluated", "evaluate"}},
			metrics: []string{"completion rates", "enrollment", "the dropout rate", "average grades", "the cost per student"},
		},
		{
			name:    "small bakeries",
			agents:  []string{"the bakery owners", "regular customers", "flour suppliers", "the local business association", "apprentice bakers", "food critics"},
			things:  []string{"the sourdough line", "the new wood-fired oven", "the loyalty card", "the delivery service", "the price increase", "the early opening hours"},
			places:  []string{"Lyon", "Brooklyn", "the market square", "Copenhagen", "the station district", "Melbourne"},
			verbs:   [][2]string{{"introduced", "introduce"}, {"tested", "test"}, {"expanded", "expand"}, {"dropped", "drop"}},
			metrics: []string{"daily sales", "the price of flour", "energy bills", "the number of customers", "food waste"},
		},
		{
			name:    "container shipping",
			agents:  []string{"shipping lines", "port operators", "freight forwarders", "the customs service", "dock workers", "retailers", "the maritime regulator"},
			things:  []string{"the automated terminal", "the new shipping lane", "the fuel surcharge", "the emissions rule for ships", "the larger container vessels", "the customs pre-clearance system"},
			places:  []string{"Rotterdam", "Singapore", "the Suez Canal", "Long Beach", "Hamburg", "the Panama Canal"},
			verbs:   [][2]string{{"introduced", "introduce"}, {"expanded", "expand"}, {"announced", "announce"}, {"delayed", "delay"}},
			metrics: []string{"freight rates", "waiting times at anchor", "container volumes", "fuel consumption", "the number of sailings"},
		},
		{
			name:    "wildfire management",
			agents:  []string{"the fire service", "forest managers", "rural landowners", "the weather bureau", "volunteer crews", "the insurance industry", "fire ecologists"},
			things:  []string{"the prescribed burning program", "the new lookout towers", "the evacuation app", "the firebreak network", "the aerial water bombers", "the building code for fire zones"},
			places:  []string{"California", "New South Wales", "Portugal", "British Columbia", "the Mediterranean hills", "Greece"},
			verbs:   [][2]string{{"expanded", "expand"}, {"funded", "fund"}, {"tested", "test"}, {"upgraded", "upgrade"}},
			metrics: []string{"the area burned", "response times", "the number of ignitions", "insurance claims", "firefighting costs"},
		},
	}
}

// shared is the vocabulary every topic draws on as well as its own.
type shared struct {
	views     [][2]string // opinion verbs {past, base} that fit any agent and thing
	sources   []string    // who reports figures
	whens     []string    // time phrases that end a clause
	changes   []string    // past-tense verbs of change for metrics
	audiences []string    // readers an instruction names
	counts    []string    // small numbers in words
}

// sharedVocab returns the topic-independent vocabulary.
func sharedVocab() shared {
	return shared{
		views:     [][2]string{{"welcomed", "welcome"}, {"debated", "debate"}, {"reviewed", "review"}, {"supported", "support"}, {"questioned", "question"}, {"studied", "study"}, {"praised", "praise"}, {"criticized", "criticize"}, {"defended", "defend"}, {"discussed", "discuss"}},
		sources:   []string{"a recent survey", "the annual report", "local officials", "an independent study", "researchers at a nearby university", "a government review", "industry analysts", "a report in the local press"},
		whens:     []string{"last year", "in the spring", "over the past decade", "during the winter", "earlier this year", "in recent months", "after the election", "before the summer"},
		changes:   []string{"rose", "fell", "grew", "dropped", "increased", "declined", "climbed"},
		audiences: []string{"a general audience", "new employees", "high school students", "senior managers", "local residents", "a team of volunteers", "journalists"},
		counts:    []string{"two", "three", "four", "five"},
	}
}
