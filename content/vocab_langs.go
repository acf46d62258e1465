package content

// Language is the natural language of a synthetic prompt's text, named by
// its ISO 639-1 code.
type Language string

// The languages of synthetic prompts. English text comes from the topics
// of vocab_topics.go; the others from the vocabularies below.
const (
	English  Language = "en"
	Spanish  Language = "es"
	French   Language = "fr"
	German   Language = "de"
	Chinese  Language = "zh"
	Japanese Language = "ja"
	Arabic   Language = "ar"
	Hindi    Language = "hi"
	Russian  Language = "ru"
)

// Languages returns every language a Synth built with SynthConfig.Tasks
// writes, English first.
func Languages() []Language {
	return []Language{English, Spanish, French, German, Chinese, Japanese, Arabic, Hindi, Russian}
}

// langText is the vocabulary of one language other than English. Its
// templates use the slots {a} (an agent), {t} (a thing), {p} (a place),
// {y} and {y2} (a year and a later one), {n} (a number), {m} (2 to 30)
// and {pct} (2 to 60); a capitalised slot ({A}) upper-cases the value's
// first letter where the script has case. Every agent reads well as the
// subject of every template and every thing as its object: the nouns
// are chosen so that no article, case or agreement changes with the slot
// (masculine agents where verbs agree with them, things whose object form
// is their subject form). Chinese and Japanese write no spaces within a
// sentence; sentences are joined with a space after the full stop, which
// is where token counts add up (pieces_count.go).
type langText struct {
	lang                   Language
	name                   string // the English name, for translation requests
	agents, things, places []string
	statements             []string // sentences of passages
	heads                  []string // first lines of a request, start form
	closes                 []string // last sentences: questions and constraints
	shorts                 []string // whole prompts too short for a passage
	fillers                []string // short sentences that give fills 2- and 3-token pieces
}

// languageName returns the English name of l.
func languageName(l Language) string {
	if l == English {
		return "English"
	}
	for _, t := range langTexts() {
		if t.lang == l {
			return t.name
		}
	}
	return string(l)
}

// langTexts returns the vocabularies of the languages other than English,
// in the order of Languages.
func langTexts() []langText {
	return []langText{spanishText(), frenchText(), germanText(), chineseText(), japaneseText(), arabicText(), hindiText(), russianText()}
}

func spanishText() langText {
	return langText{
		lang: Spanish, name: "Spanish",
		agents: []string{"el ayuntamiento", "la asociación de vecinos", "el gobierno regional", "un grupo de investigadores", "la empresa local", "el comité técnico", "la universidad"},
		things: []string{"el nuevo plan de transporte", "la reforma del mercado", "el proyecto de energía solar", "la red de bibliotecas", "el programa de becas", "la ampliación del puerto"},
		places: []string{"Sevilla", "Valencia", "Bilbao", "Zaragoza", "Málaga", "Salamanca", "Granada"},
		statements: []string{
			"{A} presentó {t} en {p} en {y}.",
			"Según los datos oficiales, {t} costó unos {n} millones de euros.",
			"Durante {m} meses, {a} estudió los efectos que tuvo {t}.",
			"En {p}, muchos vecinos apoyaron {t} desde el principio.",
			"{A} criticó {t} porque el presupuesto era demasiado alto.",
			"Entre {y} y {y2}, el número de usuarios creció un {pct} por ciento.",
			"Nadie esperaba que {t} avanzara tan rápido en {p}.",
			"{A} y {a} se reunieron en {p} para hablar sobre {t}.",
			"Una encuesta a {n} personas mostró un gran interés por {t}.",
			"{A} aseguró que {t} cambiaría {p} en pocos años.",
			"Al final, {t} se retrasó {m} meses.",
			"Los expertos creen que todavía es pronto para juzgar {t}.",
			"En {y}, {a} pidió más dinero para {t}.",
			"La prensa local siguió {t} con mucha atención.",
		},
		heads: []string{
			"Lee el siguiente texto sobre {p} y responde a la pregunta del final.",
			"Aquí tienes información de fondo sobre {t}.",
			"Resume los puntos principales del texto siguiente.",
			"Tengo una pregunta sobre lo que ocurrió en {p}.",
			"Escribe un breve informe a partir de estas notas.",
		},
		closes: []string{
			"¿Qué papel tuvo {a} en estos hechos?", "¿Por qué se retrasó {t}?", "Responde en pocas frases.",
			"¿Qué debería hacer {a} ahora?", "¿Valió la pena el coste?", "Usa un tono neutral.",
		},
		shorts:  []string{"¿Qué es {t}?", "Resume esto.", "¿Por qué?", "Ayúdame, por favor.", "Explica {t} de forma sencilla."},
		fillers: []string{"Claro.", "De acuerdo.", "Exacto.", "Sin duda.", "Gracias.", "Muy bien.", "Es cierto.", "Nada cambió.", "Ya veremos."},
	}
}

func frenchText() langText {
	return langText{
		lang: French, name: "French",
		agents: []string{"la mairie", "le conseil régional", "une équipe de chercheurs", "l'association des habitants", "le ministère", "la chambre de commerce"},
		things: []string{"le projet de rénovation du port", "le plan vélo", "la nouvelle médiathèque", "le programme de formation", "la centrale solaire", "le réseau de tramway"},
		places: []string{"Lyon", "Nantes", "Bordeaux", "Lille", "Strasbourg", "Rennes", "Toulouse"},
		statements: []string{
			"{A} a présenté {t} à {p} en {y}.",
			"Selon les chiffres officiels, {t} a coûté environ {n} millions d'euros.",
			"Pendant {m} mois, {a} a étudié les effets concrets sur {t}.",
			"À {p}, beaucoup d'habitants ont soutenu {t} dès le début.",
			"{A} a critiqué {t} parce que le budget était trop élevé.",
			"Entre {y} et {y2}, le nombre d'usagers a augmenté de {pct} pour cent.",
			"Personne ne s'attendait à ce que {t} avance aussi vite à {p}.",
			"{A} et {a} se sont réunis à {p} pour examiner {t}.",
			"Un sondage auprès de {n} personnes a montré un fort intérêt pour {t}.",
			"{A} a affirmé que {t} transformerait {p} en quelques années.",
			"Finalement, {t} a pris {m} mois de retard.",
			"Les experts estiment qu'il est trop tôt pour juger {t}.",
			"En {y}, {a} a demandé plus de moyens pour {t}.",
			"La presse locale a suivi {t} avec beaucoup d'attention.",
		},
		heads: []string{
			"Lisez le texte suivant sur {p} et répondez à la question posée à la fin.",
			"Voici quelques informations sur {t}.",
			"Résumez les points principaux du texte ci-dessous.",
			"J'ai une question sur ce qui s'est passé à {p}.",
			"Rédigez un court rapport à partir de ces notes.",
		},
		closes: []string{
			"Quel rôle a joué {a} dans ces événements?", "Pourquoi le projet a-t-il pris du retard?", "Répondez en quelques phrases.",
			"Que devrait faire {a} maintenant?", "Le coût en valait-il la peine?", "Gardez un ton neutre.",
		},
		shorts:  []string{"Qu'est-ce que {t}?", "Résumez ceci.", "Pourquoi?", "Aidez-moi, s'il vous plaît.", "Expliquez {t} simplement."},
		fillers: []string{"Bien sûr.", "D'accord.", "Exact.", "Merci.", "Très bien.", "C'est vrai.", "Rien n'a changé.", "Sans doute.", "On verra."},
	}
}

func germanText() langText {
	return langText{
		lang: German, name: "German",
		agents: []string{"der Stadtrat", "die Landesregierung", "ein Forschungsteam", "der Bürgerverein", "die Handelskammer", "das Ministerium"},
		things: []string{"das neue Verkehrskonzept", "die Hafenerweiterung", "das Solarprojekt", "die neue Stadtbibliothek", "das Stipendienprogramm", "die Reform des Nahverkehrs"},
		places: []string{"Hamburg", "Leipzig", "Köln", "Freiburg", "Dresden", "Bremen", "Nürnberg"},
		statements: []string{
			"{A} stellte {t} im Jahr {y} in {p} vor.",
			"Nach offiziellen Angaben kostete {t} rund {n} Millionen Euro.",
			"Über {m} Monate untersuchte {a} die Folgen für {t}.",
			"In {p} unterstützten viele Einwohner {t} von Anfang an.",
			"{A} kritisierte {t}, weil die Kosten zu hoch waren.",
			"Zwischen {y} und {y2} stieg die Zahl der Nutzer um {pct} Prozent.",
			"Niemand hatte erwartet, dass {t} in {p} so schnell vorankommt.",
			"Eine Umfrage unter {n} Menschen ergab breite Zustimmung für {t}.",
			"{A} erklärte, dass {t} {p} in wenigen Jahren verändern werde.",
			"Am Ende verzögerte sich {t} um {m} Monate.",
			"{A} und {a} trafen sich in {p}, um {t} zu besprechen.",
			"Fachleute halten es für zu früh, {t} zu beurteilen.",
			"Im Jahr {y} forderte {a} mehr Geld für {t}.",
			"Die Lokalpresse verfolgte {t} sehr genau.",
		},
		heads: []string{
			"Lies den folgenden Text über {p} und beantworte die Frage am Ende.",
			"Hier sind einige Hintergrundinformationen über {t}.",
			"Fasse die wichtigsten Punkte des folgenden Textes zusammen.",
			"Ich habe eine Frage dazu, was in {p} passiert ist.",
			"Schreibe anhand dieser Notizen einen kurzen Bericht.",
		},
		closes: []string{
			"Welche Rolle spielte {a} dabei?", "Warum verzögerte sich {t}?", "Antworte in wenigen Sätzen.",
			"Was sollte {a} jetzt tun?", "Haben sich die Kosten gelohnt?", "Bleib bitte sachlich.",
		},
		shorts:  []string{"Was ist {t}?", "Fasse das zusammen.", "Warum?", "Hilf mir bitte.", "Erkläre {t} einfach."},
		fillers: []string{"Genau.", "Stimmt.", "Danke.", "Sicher.", "Gut so.", "Na klar.", "Das stimmt.", "Nichts änderte sich.", "Mal sehen."},
	}
}

func chineseText() langText {
	return langText{
		lang: Chinese, name: "Chinese",
		agents: []string{"市政府", "研究团队", "当地企业", "交通委员会", "大学", "居民协会"},
		things: []string{"新的公交计划", "港口扩建项目", "太阳能电站", "社区图书馆网络", "奖学金计划", "老城区改造方案"},
		places: []string{"杭州", "成都", "武汉", "西安", "南京", "青岛", "厦门"},
		statements: []string{
			"{a}于{y}年在{p}公布了{t}。",
			"据官方统计，{t}的总投资约为{n}万元。",
			"{a}用了{m}个月研究{t}带来的影响。",
			"在{p}，许多居民从一开始就支持{t}。",
			"{a}批评{t}，认为成本过高。",
			"从{y}年到{y2}年，使用人数增长了{pct}%。",
			"没有人想到{t}在{p}推进得这么快。",
			"{a}和{a}在{p}会面，讨论{t}。",
			"一项针对{n}名居民的调查显示，大家对{t}很感兴趣。",
			"{a}表示，{t}将在几年内改变{p}。",
			"最终，{t}推迟了{m}个月。",
			"专家认为，{t}的效果需要更长时间才能看清。",
			"{y}年，{a}要求为{t}追加资金。",
			"当地媒体一直密切关注{t}。",
		},
		heads: []string{
			"请阅读下面关于{p}的文字，并回答最后的问题。",
			"以下是关于{t}的一些背景信息。",
			"请总结下文的要点。",
			"我想问一个关于{p}的问题。",
			"请根据以下笔记写一份简短的报告。",
		},
		closes: []string{
			"{a}在这些事件中起了什么作用？", "{t}为什么会推迟？", "请用几句话回答。",
			"{a}下一步应该怎么做？", "这笔费用值得吗？", "请保持客观的语气。",
		},
		shorts:  []string{"{t}是什么？", "请总结一下。", "为什么？", "请帮帮我。", "请简单解释{t}。"},
		fillers: []string{"好的。", "是的。", "没错。", "谢谢。", "明白了。", "确实如此。", "情况没变。", "对。", "再看看。"},
	}
}

func japaneseText() langText {
	return langText{
		lang: Japanese, name: "Japanese",
		agents: []string{"市役所", "研究チーム", "地元企業", "交通委員会", "大学", "住民団体"},
		things: []string{"新しいバス路線計画", "港の拡張計画", "太陽光発電所", "図書館ネットワーク", "奨学金制度", "旧市街の再開発"},
		places: []string{"札幌", "福岡", "仙台", "金沢", "広島", "神戸", "那覇"},
		statements: []string{
			"{a}は{y}年に{p}で{t}を発表した。",
			"公式の統計によると、{t}の総費用は約{n}万円だった。",
			"{a}は{m}か月かけて{t}の影響を調べた。",
			"{p}では、多くの住民が最初から{t}を支持していた。",
			"{a}は費用が高すぎるとして{t}を批判した。",
			"{y}年から{y2}年にかけて、利用者は{pct}%増えた。",
			"{t}が{p}でこれほど早く進むとは誰も予想していなかった。",
			"{a}と{a}は{p}で会い、{t}について話し合った。",
			"{n}人の住民を対象にした調査では、{t}への関心が高かった。",
			"{a}は、{t}が数年で{p}を変えると述べた。",
			"結局、{t}は{m}か月遅れた。",
			"専門家は、{t}の効果を判断するにはもっと時間が必要だと考えている。",
			"{y}年、{a}は{t}のための追加予算を求めた。",
			"地元の新聞は{t}を詳しく報じ続けた。",
		},
		heads: []string{
			"{p}についての次の文章を読んで、最後の質問に答えてください。",
			"{t}についての背景情報は以下のとおりです。",
			"次の文章の要点をまとめてください。",
			"{p}で起きたことについて質問があります。",
			"次のメモをもとに短い報告書を書いてください。",
		},
		closes: []string{
			"{a}はこの出来事でどんな役割を果たしましたか？", "{t}はなぜ遅れたのですか？", "数文で答えてください。",
			"{a}は次に何をすべきですか？", "その費用に見合う価値はありましたか？", "中立的な口調でお願いします。",
		},
		shorts:  []string{"{t}とは何ですか？", "要約してください。", "なぜですか？", "助けてください。", "{t}を簡単に説明してください。"},
		fillers: []string{"はい。", "そうです。", "確かに。", "ありがとう。", "了解です。", "その通りです。", "変化はなかった。", "なるほど。"},
	}
}

func arabicText() langText {
	return langText{
		lang: Arabic, name: "Arabic",
		agents: []string{"المجلس البلدي", "فريق البحث", "الوزير", "الاتحاد المحلي", "المدير العام", "البنك المركزي"},
		things: []string{"مشروع النقل الجديد", "برنامج المنح", "مشروع الطاقة الشمسية", "مخطط توسيع الميناء", "نظام المكتبات العامة", "قانون البناء الجديد"},
		places: []string{"عمّان", "الرباط", "تونس", "الدوحة", "بيروت", "مسقط", "القاهرة"},
		statements: []string{
			"أعلن {a} عن {t} في {p} عام {y}.",
			"وفقاً للأرقام الرسمية، بلغت تكلفة {t} نحو {n} مليون دولار.",
			"درس {a} آثار {t} لعدة أشهر.",
			"في {p}، دعم كثير من السكان {t} منذ البداية.",
			"انتقد {a} {t} بسبب ارتفاع التكاليف.",
			"بين عامي {y} و{y2}، ارتفع عدد المستخدمين بنسبة {pct} في المئة.",
			"لم يتوقع أحد أن يتقدم {t} بهذه السرعة في {p}.",
			"التقى {a} و{a} في {p} لمناقشة {t}.",
			"أظهر استطلاع للرأي اهتماماً كبيراً بهذا المشروع.",
			"قال {a} إن {t} سيغير {p} خلال سنوات قليلة.",
			"في النهاية، تأخر {t} عدة أشهر.",
			"يرى الخبراء أن نتائج {t} تحتاج إلى وقت أطول.",
			"في عام {y}، طلب {a} تمويلاً إضافياً لصالح {t}.",
			"تابعت الصحافة المحلية {t} باهتمام كبير.",
		},
		heads: []string{
			"اقرأ النص التالي عن {p} ثم أجب عن السؤال في النهاية.",
			"فيما يلي معلومات عن {t}.",
			"لخّص النقاط الرئيسية في النص التالي.",
			"لدي سؤال عما حدث في {p}.",
			"اكتب تقريراً قصيراً بناءً على هذه الملاحظات.",
		},
		closes: []string{
			"ما الدور الذي أداه {a} في هذه الأحداث؟", "لماذا تأخر {t}؟", "أجب في بضع جمل.",
			"ماذا يجب أن يفعل {a} الآن؟", "هل كانت التكلفة مبررة؟", "استخدم أسلوباً محايداً.",
		},
		shorts:  []string{"ما هو {t}؟", "لخّص هذا.", "لماذا؟", "ساعدني من فضلك.", "اشرح {t} ببساطة."},
		fillers: []string{"نعم.", "شكراً.", "بالتأكيد.", "صحيح.", "حسناً.", "هذا صحيح.", "لم يتغير شيء.", "سنرى."},
	}
}

func hindiText() langText {
	return langText{
		lang: Hindi, name: "Hindi",
		agents: []string{"नगर निगम", "शोध दल", "स्थानीय व्यापार संघ", "शिक्षा विभाग", "विश्वविद्यालय", "परिवहन आयोग"},
		things: []string{"नई बस योजना", "बंदरगाह विस्तार परियोजना", "सौर ऊर्जा संयंत्र", "पुस्तकालय नेटवर्क", "छात्रवृत्ति कार्यक्रम", "पुराने शहर का पुनर्विकास"},
		places: []string{"पुणे", "जयपुर", "लखनऊ", "भोपाल", "इंदौर", "पटना", "कोच्चि"},
		statements: []string{
			"{a} ने {y} में {p} में {t} की घोषणा की।",
			"सरकारी आंकड़ों के अनुसार {t} पर लगभग {n} करोड़ रुपये खर्च हुए।",
			"{a} ने {m} महीनों तक {t} के प्रभाव का अध्ययन किया।",
			"{p} में कई लोगों ने शुरुआत से ही {t} का समर्थन किया।",
			"{a} ने ऊंची लागत के कारण {t} की आलोचना की।",
			"{y} से {y2} के बीच उपयोगकर्ताओं की संख्या {pct} प्रतिशत बढ़ी।",
			"किसी को उम्मीद नहीं थी कि {p} में {t} पर काम इतनी जल्दी पूरा होगा।",
			"{a} और {a} ने {p} में मिलकर {t} पर चर्चा की।",
			"{n} लोगों के एक सर्वेक्षण में {t} के प्रति गहरी रुचि दिखी।",
			"{t} से कुछ ही वर्षों में {p} की तस्वीर बदल जाएगी।",
			"आखिरकार {t} का काम {m} महीने देर से शुरू हुआ।",
			"विशेषज्ञों का मानना है कि {t} के नतीजे समझने में समय लगेगा।",
			"{y} में {a} ने {t} के लिए अधिक धन की मांग की।",
			"स्थानीय अखबारों ने {t} पर लगातार नजर रखी।",
		},
		heads: []string{
			"{p} के बारे में नीचे दिया गया पाठ पढ़ें और अंत में दिए गए प्रश्न का उत्तर दें।",
			"{t} के बारे में कुछ जानकारी नीचे दी गई है।",
			"नीचे दिए गए पाठ के मुख्य बिंदुओं का सारांश लिखें।",
			"मेरा {p} में हुई घटनाओं के बारे में एक सवाल है।",
			"इन नोट्स के आधार पर एक छोटी रिपोर्ट लिखें।",
		},
		closes: []string{
			"इन घटनाओं में {a} की क्या भूमिका थी?", "{t} में देरी क्यों हुई?", "कुछ वाक्यों में उत्तर दें।",
			"अब {a} को क्या करना चाहिए?", "क्या यह खर्च उचित था?", "तटस्थ भाषा का प्रयोग करें।",
		},
		shorts:  []string{"{t} क्या है?", "इसका सारांश दें।", "क्यों?", "कृपया मेरी मदद करें।", "{t} को सरल शब्दों में समझाएं।"},
		fillers: []string{"हाँ।", "ठीक है।", "धन्यवाद।", "बिल्कुल।", "सही है।", "कुछ नहीं बदला।", "देखते हैं।"},
	}
}

func russianText() langText {
	return langText{
		lang: Russian, name: "Russian",
		agents: []string{"городской совет", "губернатор", "технический комитет", "местный бизнес", "университет", "профсоюз"},
		things: []string{"новый транспортный план", "проект солнечной станции", "бюджет на следующий год", "закон о парковках", "план реконструкции порта", "образовательный проект"},
		places: []string{"в Казани", "в Новосибирске", "в Самаре", "в Екатеринбурге", "в Томске", "в Калуге", "в Пскове"},
		statements: []string{
			"{A} представил {t} {p} в {y} году.",
			"По официальным данным, {t} обошёлся примерно в {n} млн рублей.",
			"Несколько месяцев {a} изучал последствия этого решения.",
			"{P} многие жители с самого начала поддержали {t}.",
			"{A} критиковал {t} из-за слишком высоких расходов.",
			"С {y} по {y2} год число пользователей выросло на {pct}%.",
			"Никто не ожидал, что {t} так быстро продвинется {p}.",
			"{A} заявил, что {t} изменит жизнь {p} за несколько лет.",
			"Опрос жителей показал большой интерес к этому плану.",
			"В итоге {t} задержался на несколько месяцев.",
			"{A} обсудил {t} с представителями города.",
			"Эксперты считают, что {t} окупится к {y2} году.",
			"В {y} году {a} попросил дополнительные средства.",
			"Местная пресса внимательно следила за ходом работ.",
		},
		heads: []string{
			"Прочитайте текст ниже и ответьте на вопрос в конце.",
			"Вот немного информации о том, что происходило {p}.",
			"Кратко изложите основные мысли следующего текста.",
			"У меня вопрос о событиях {p}.",
			"Напишите короткий отчёт по этим заметкам.",
		},
		closes: []string{
			"Какую роль сыграл {a} в этих событиях?", "Почему работы задержались?", "Ответьте в нескольких предложениях.",
			"Что теперь делать дальше?", "Оправданы ли были расходы?", "Пишите нейтральным тоном.",
		},
		shorts:  []string{"Что такое {t}?", "Кратко перескажите это.", "Почему?", "Помогите, пожалуйста.", "Объясните {t} простыми словами."},
		fillers: []string{"Да.", "Конечно.", "Верно.", "Спасибо.", "Хорошо.", "Это так.", "Ничего не изменилось.", "Понятно.", "Посмотрим."},
	}
}
