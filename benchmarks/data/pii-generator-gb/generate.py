"""Generate pii_generator_gb.jsonl: chat-style messages with labelled personal data.

Every template, value list and format below is written for this generator.
Run: python generate.py  (writes pii_generator_gb.jsonl next to this file, seed 75).
"""

import json
import os
import random
import re
import unicodedata

SEED = 75
OUT_NAME = "pii_generator_gb.jsonl"
N_WITH_PII = 480
N_WITHOUT_PII = 120
N_JOINED_PII = 150
N_JOINED_NONE = 45
SHARE_OF_THREE = 0.3
SHARE_OF_DISTRACTOR_SENTENCE = 0.35

# ---------------------------------------------------------------------------
# Names: (first names, surnames) per culture, written with their accents.
# ---------------------------------------------------------------------------
NAMES_BY_CULTURE = {
    "english": (
        ["Oliver", "Amelia", "Alfie", "Jessica", "George", "Charlotte", "Thomas", "Hannah", "Freddie", "Lucy"],
        ["Whitfield", "Pemberton", "Hargreaves", "Ashworth", "Thornton", "Holloway", "Fairbairn"],
    ),
    "irish": (
        ["Siobhán", "Niamh", "Seán", "Aoife", "Ciarán", "Pádraig", "Róisín", "Eoin", "Caoimhe", "Oisín"],
        ["O'Sullivan", "Ó Floinn", "McCarthy", "Ní Dhónaill", "Kavanagh", "Ó Súilleabháin", "Doherty"],
    ),
    "scottish_welsh": (
        ["Eilidh", "Ruaridh", "Morag", "Callum", "Iona", "Siân", "Rhys", "Gwenllian", "Dafydd", "Ffion"],
        ["MacLeod", "Buchanan", "Cruickshank", "Pritchard", "Llewellyn", "Gruffydd", "Menzies"],
    ),
    "french": (
        ["Amélie", "Théo", "Chloé", "Jérôme", "Léa", "François", "Hélène", "Benoît", "Océane", "Gaël"],
        ["Lefèvre", "Dubois", "Moreau", "Bénard", "Rousseau", "Lemaître", "Girard"],
    ),
    "german": (
        ["Jürgen", "Jörg", "Lena", "Günther", "Sören", "Käthe", "Matthias", "Anneliese", "Lukas", "Mareike"],
        ["Müller", "Schäfer", "Weiß", "Großmann", "Köhler", "Brandt", "Hoffmann"],
    ),
    "spanish": (
        ["José", "María", "Íñigo", "Lucía", "Álvaro", "Begoña", "Martín", "Nuria", "Sofía", "Raúl"],
        ["García", "Fernández", "Martínez", "Núñez", "Ibáñez", "Sánchez", "Peña"],
    ),
    "italian": (
        ["Giulia", "Lorenzo", "Chiara", "Niccolò", "Francesca", "Matteo", "Alessia", "Davide", "Federica", "Gianluca"],
        ["Rossi", "Esposito", "Bianchi", "Colombo", "Ricci", "Mancini", "De Luca"],
    ),
    "portuguese_brazilian": (
        ["João", "Conceição", "Thiago", "Letícia", "Gonçalo", "Inês", "Luíza", "Sebastião", "Caio", "Fernanda"],
        ["Gonçalves", "Araújo", "Magalhães", "Pereira", "Guimarães", "Simões", "Assunção"],
    ),
    "polish": (
        [
            "Małgorzata",
            "Wojciech",
            "Agnieszka",
            "Łukasz",
            "Katarzyna",
            "Paweł",
            "Zofia",
            "Michał",
            "Żaneta",
            "Bartłomiej",
        ],
        ["Kowalczyk", "Wiśniewska", "Dąbrowski", "Zieliński", "Woźniak", "Krawczyk", "Lewandowska"],
    ),
    "czech": (
        ["Jiří", "Tereza", "Ondřej", "Kateřina", "Tomáš", "Lucie", "Vojtěch", "Zuzana", "Radek", "Markéta"],
        ["Novák", "Dvořáková", "Svoboda", "Procházka", "Černý", "Kučerová", "Horák"],
    ),
    "swedish": (
        ["Björn", "Åsa", "Linnéa", "Göran", "Ingrid", "Måns", "Sigrid", "Anders", "Elin", "Torbjörn"],
        ["Lindqvist", "Åkesson", "Sjöberg", "Bergström", "Söderlund", "Nyström", "Holmgren"],
    ),
    "norwegian": (
        ["Øystein", "Solveig", "Håkon", "Ragnhild", "Sindre", "Kjersti", "Ørjan", "Frida", "Bjørnar", "Tiril"],
        ["Haugen", "Bråthen", "Løvik", "Solberg", "Ødegård", "Kristiansen", "Sæther"],
    ),
    "finnish": (
        ["Väinö", "Aino", "Jyrki", "Päivi", "Eero", "Sanna", "Tuomas", "Mirjami", "Aleksi", "Kaisu"],
        ["Mäkinen", "Hämäläinen", "Virtanen", "Järvinen", "Kärkkäinen", "Heikkilä", "Lehtonen"],
    ),
    "turkish": (
        ["Çağla", "Oğuz", "Gökhan", "Şebnem", "Ayşe", "Mehmet", "Özlem", "Emre", "Büşra", "İlker"],
        ["Yılmaz", "Öztürk", "Şahin", "Çelik", "Doğan", "Kılıç", "Aydın"],
    ),
    "greek": (
        [
            "Eleni",
            "Giorgos",
            "Dimitra",
            "Konstantinos",
            "Sotiria",
            "Nikos",
            "Vasiliki",
            "Stavros",
            "Athina",
            "Panagiotis",
        ],
        ["Papadopoulos", "Georgiou", "Konstantinidou", "Alexiou", "Oikonomou", "Vlachos", "Antoniadis"],
    ),
    "indian": (
        ["Priya", "Arjun", "Ananya", "Rohan", "Lakshmi", "Vikram", "Kavya", "Siddharth", "Meera", "Aditya"],
        ["Sharma", "Iyer", "Reddy", "Chatterjee", "Nair", "Patel", "Krishnamurthy"],
    ),
    "pakistani_bangladeshi": (
        ["Ayesha", "Farhan", "Nusrat", "Tariq", "Saima", "Rizwan", "Hafsa", "Bilal", "Tahmina", "Shahid"],
        ["Qureshi", "Chaudhry", "Rahman", "Hossain", "Siddiqui", "Malik", "Begum"],
    ),
    "chinese": (
        ["Weijie", "Xiaoling", "Junhao", "Meiling", "Haoyu", "Yuting", "Zhiwei", "Jiahui", "Qiang", "Shufen"],
        ["Zhang", "Chen", "Liu", "Huang", "Zhou", "Wu", "Xu"],
    ),
    "japanese": (
        ["Haruto", "Yūki", "Sakura", "Riku", "Aoi", "Sōta", "Hinata", "Kenta", "Misaki", "Yūto"],
        ["Satō", "Takahashi", "Itō", "Watanabe", "Yamamoto", "Kobayashi", "Saitō"],
    ),
    "korean": (
        ["Ji-woo", "Min-jun", "Seo-yeon", "Do-yun", "Ha-eun", "Ji-ho", "Soo-ah", "Jae-won", "Eun-ji", "Hyun-woo"],
        ["Kim", "Park", "Choi", "Jung", "Kang", "Yoon", "Shin"],
    ),
    "nigerian": (
        ["Chidi", "Ngozi", "Oluwaseun", "Adaeze", "Tunde", "Folake", "Emeka", "Chiamaka", "Babajide", "Yetunde"],
        ["Okafor", "Adeyemi", "Nwosu", "Olawale", "Eze", "Ogunleye", "Okonkwo"],
    ),
    "arabic": (
        ["Youssef", "Fátima", "Omar", "Layla", "Khaled", "Nour", "Hamza", "Yasmin", "Karim", "Rania"],
        ["Al-Hashimi", "Haddad", "Mansour", "El-Sayed", "Khoury", "Nasser", "Abboud"],
    ),
    "vietnamese": (
        ["Thảo", "Minh", "Xuân", "Đức", "Hương", "Quang", "Linh", "Tuấn", "Ngọc", "Phương"],
        ["Nguyễn", "Trần", "Lê", "Phạm", "Hoàng", "Võ", "Đặng"],
    ),
    "hungarian": (
        ["Zsófia", "Bence", "Réka", "Levente", "Dóra", "Gergő", "Ildikó", "Máté", "Eszter", "Csaba"],
        ["Nagy", "Kovács", "Tóth", "Szabó", "Horváth", "Varga", "Fehér"],
    ),
    "ukrainian_russian": (
        ["Dmytro", "Anastasiia", "Oleksandr", "Yulia", "Mykola", "Svitlana", "Sergei", "Olena", "Andriy", "Natalia"],
        ["Ivanova", "Kovalenko", "Shevchuk", "Petrov", "Bondarenko", "Sokolova", "Melnyk"],
    ),
}

TITLES = ["Mr", "Mrs", "Ms", "Miss", "Dr", "Mx"]

# ---------------------------------------------------------------------------
# Addresses: street names and towns per country, with their own formats.
# ---------------------------------------------------------------------------
STREETS = {
    "uk": [
        "Mill Lane",
        "Victoria Street",
        "Kingsley Avenue",
        "Chestnut Close",
        "Hawthorn Drive",
        "Station Road",
        "Priory Gardens",
        "Cavendish Crescent",
        "Rosebery Terrace",
        "Albert Road",
    ],
    "us": [
        "Maple Avenue",
        "Oak Street",
        "Willow Lane",
        "Sycamore Drive",
        "Lincoln Boulevard",
        "Hickory Court",
        "Magnolia Way",
        "Cedar Ridge Road",
    ],
    "de": [
        "Lindenstraße",
        "Schillerstraße",
        "Am Mühlbach",
        "Goethestraße",
        "Rosenweg",
        "Kastanienallee",
        "Bahnhofstraße",
        "Wiesenweg",
    ],
    "fr": [
        "rue des Lilas",
        "avenue Jean Jaurès",
        "boulevard Voltaire",
        "rue de la République",
        "impasse des Tilleuls",
        "chemin du Moulin",
        "rue Émile Zola",
        "allée des Cerisiers",
    ],
    "es": [
        "Calle Mayor",
        "Avenida de la Constitución",
        "Calle del Pez",
        "Calle de Toledo",
        "Calle de la Luna",
        "Avenida del Puerto",
        "Calle San Vicente",
    ],
    "it": [
        "Via Garibaldi",
        "Via Roma",
        "Corso Vittorio Emanuele II",
        "Via dei Mille",
        "Viale Monza",
        "Via della Pergola",
        "Via Nazionale",
    ],
    "pl": [
        "ul. Długa",
        "ul. Marszałkowska",
        "ul. Kwiatowa",
        "ul. Piłsudskiego",
        "al. Jerozolimskie",
        "ul. Świętokrzyska",
        "ul. Ogrodowa",
    ],
    "cz": ["Vinohradská", "Korunní", "Husova", "Francouzská", "Lidická", "Masarykova", "Na Výsluní"],
    "se": ["Storgatan", "Kungsgatan", "Sveavägen", "Björkvägen", "Hornsgatan", "Östra Långgatan", "Skolgatan"],
    "no": [
        "Kirkeveien",
        "Thorvald Meyers gate",
        "Bogstadveien",
        "Markveien",
        "Sognsveien",
        "Trondheimsveien",
        "Løkkeveien",
    ],
    "fi": [
        "Mannerheimintie",
        "Hämeentie",
        "Kalevankatu",
        "Runeberginkatu",
        "Itäinen Pitkäkatu",
        "Pyynikintie",
        "Koivukuja",
    ],
    "br": [
        "Rua das Flores",
        "Rua Augusta",
        "Rua São Bento",
        "Rua da Consolação",
        "Rua dos Ipês",
        "Avenida Brasil",
        "Rua Marechal Deodoro",
    ],
    "ar": [
        "Av. Corrientes",
        "Calle Defensa",
        "Av. Rivadavia",
        "Calle Thames",
        "Av. Callao",
        "Calle Güemes",
        "Calle Sarmiento",
    ],
    "in": [
        "MG Road",
        "Nehru Nagar Main Road",
        "Gandhi Street",
        "Lake View Road",
        "Temple Street",
        "2nd Cross Road",
        "Shivaji Path",
    ],
    "au": [
        "Wattle Street",
        "Acacia Avenue",
        "Jacaranda Crescent",
        "Banksia Drive",
        "Bottlebrush Lane",
        "Gumtree Road",
        "Waratah Parade",
    ],
    "ie": ["Griffith Avenue", "Leeson Park", "Clontarf Road", "Ardee Street", "Sandymount Avenue", "Castle Street"],
    "nl": ["Prinsengracht", "Lindengracht", "Oudegracht", "Vondelstraat", "Zeeburgerdijk", "Kerkstraat"],
}

UK_TOWNS = [
    ("London", ["N7", "E8", "SE15", "SW9", "NW5"]),
    ("Manchester", ["M14", "M20"]),
    ("Leeds", ["LS6", "LS8"]),
    ("Bristol", ["BS3", "BS6"]),
    ("Glasgow", ["G12", "G41"]),
    ("Cardiff", ["CF24", "CF11"]),
    ("Edinburgh", ["EH6", "EH10"]),
    ("Birmingham", ["B13", "B29"]),
    ("Norwich", ["NR2"]),
    ("Belfast", ["BT7"]),
    ("York", ["YO10"]),
    ("Brighton", ["BN2"]),
]
US_CITIES = [
    ("Columbus", "OH", "432"),
    ("Portland", "OR", "972"),
    ("Austin", "TX", "787"),
    ("Denver", "CO", "802"),
    ("Madison", "WI", "537"),
    ("Raleigh", "NC", "276"),
    ("Boston", "MA", "021"),
    ("Sacramento", "CA", "958"),
]
DE_CITIES = [
    ("Berlin", "10"),
    ("Berlin", "12"),
    ("Hamburg", "22"),
    ("München", "80"),
    ("Köln", "50"),
    ("Leipzig", "04"),
    ("Frankfurt am Main", "60"),
    ("Düsseldorf", "40"),
]
FR_CITIES = [
    ("Paris", ["75011", "75018", "75020", "75005"]),
    ("Lyon", ["69003", "69007"]),
    ("Marseille", ["13001", "13006"]),
    ("Toulouse", ["31000", "31400"]),
    ("Nantes", ["44000"]),
    ("Lille", ["59000"]),
    ("Bordeaux", ["33000", "33800"]),
]
ES_CITIES = [
    ("Madrid", "280"),
    ("Barcelona", "080"),
    ("Valencia", "460"),
    ("Sevilla", "410"),
    ("Bilbao", "480"),
    ("Málaga", "290"),
    ("Zaragoza", "500"),
]
IT_CITIES = [
    ("Milano", "201", "MI"),
    ("Roma", "001", "RM"),
    ("Torino", "101", "TO"),
    ("Bologna", "401", "BO"),
    ("Napoli", "801", "NA"),
    ("Firenze", "501", "FI"),
]
PL_CITIES = [
    ("Warszawa", ["00", "01", "02"]),
    ("Kraków", ["30", "31"]),
    ("Gdańsk", ["80"]),
    ("Wrocław", ["50", "53"]),
    ("Poznań", ["60", "61"]),
    ("Łódź", ["90", "91"]),
]
CZ_CITIES = [
    ("Praha 2", "120 00"),
    ("Praha 3", "130 00"),
    ("Brno", "602 00"),
    ("Ostrava", "702 00"),
    ("Plzeň", "301 00"),
    ("Olomouc", "779 00"),
]
SE_CITIES = [("Stockholm", "11"), ("Göteborg", "41"), ("Malmö", "21"), ("Uppsala", "75"), ("Umeå", "90")]
NO_CITIES = [("Oslo", "0"), ("Bergen", "5"), ("Trondheim", "70"), ("Stavanger", "40"), ("Tromsø", "90")]
FI_CITIES = [("Helsinki", "00"), ("Tampere", "33"), ("Turku", "20"), ("Oulu", "90"), ("Espoo", "02")]
BR_CITIES = [
    ("São Paulo", "SP", "0"),
    ("Rio de Janeiro", "RJ", "2"),
    ("Belo Horizonte", "MG", "3"),
    ("Curitiba", "PR", "8"),
    ("Porto Alegre", "RS", "9"),
    ("Salvador", "BA", "4"),
]
AR_CITIES = [("Buenos Aires", "C1"), ("Córdoba", "X5"), ("Rosario", "S2"), ("Mendoza", "M5")]
IN_CITIES = [
    ("Bengaluru", "560"),
    ("Mumbai", "400"),
    ("Chennai", "600"),
    ("Kolkata", "700"),
    ("Hyderabad", "500"),
    ("Pune", "411"),
]
JP_AREAS = [
    ("Jingumae", "Shibuya-ku", "Tokyo", "150"),
    ("Kitazawa", "Setagaya-ku", "Tokyo", "155"),
    ("Nakameguro", "Meguro-ku", "Tokyo", "153"),
    ("Sakae", "Naka-ku", "Nagoya", "460"),
    ("Tenjin", "Chūō-ku", "Fukuoka", "810"),
    ("Umeda", "Kita-ku", "Osaka", "530"),
    ("Kōenji-minami", "Suginami-ku", "Tokyo", "166"),
]
JP_BUILDINGS = ["Sunny Heights", "Maison Aoba", "Green Court", "Palace Sakura", "Coop Hikari"]
AU_SUBURBS = [
    ("Fitzroy", "VIC", "3065"),
    ("Newtown", "NSW", "2042"),
    ("Paddington", "QLD", "4064"),
    ("Fremantle", "WA", "6160"),
    ("Glenelg", "SA", "5045"),
    ("Bondi", "NSW", "2026"),
    ("Sandy Bay", "TAS", "7005"),
]
IE_TOWNS = [("Dublin 9", "D09"), ("Dublin 4", "D04"), ("Dublin 8", "D08"), ("Cork", "T12"), ("Galway", "H91")]
NL_CITIES = [("Amsterdam", "10"), ("Utrecht", "35"), ("Rotterdam", "30"), ("Groningen", "97"), ("Haarlem", "20")]

COUNTRY_WEIGHTS = [
    ("uk", 5),
    ("us", 2),
    ("de", 2),
    ("fr", 2),
    ("es", 1),
    ("it", 1),
    ("pl", 2),
    ("cz", 1),
    ("se", 1),
    ("no", 1),
    ("fi", 1),
    ("br", 1),
    ("ar", 1),
    ("in", 2),
    ("jp", 1),
    ("au", 1),
    ("ie", 1),
    ("nl", 1),
]

# ---------------------------------------------------------------------------
# E-mail providers for private addresses.
# ---------------------------------------------------------------------------
EMAIL_DOMAINS = [
    "gmail.com",
    "outlook.com",
    "hotmail.co.uk",
    "yahoo.co.uk",
    "icloud.com",
    "proton.me",
    "btinternet.com",
    "live.co.uk",
    "web.de",
    "gmx.de",
    "orange.fr",
    "free.fr",
    "libero.it",
    "wp.pl",
    "seznam.cz",
    "yahoo.es",
    "uol.com.br",
    "hotmail.se",
    "online.no",
    "gmail.fi",
    "rediffmail.com",
    "bigpond.com",
]
ASCII_FIX = {
    "ø": "o",
    "Ø": "O",
    "ł": "l",
    "Ł": "L",
    "đ": "d",
    "Đ": "D",
    "ß": "ss",
    "æ": "ae",
    "Æ": "AE",
    "ı": "i",
    "œ": "oe",
}

# ---------------------------------------------------------------------------
# Health: conditions, medication, symptoms and treatments of a person.
# ---------------------------------------------------------------------------
HEALTH_CONDITIONS = [
    "type 2 diabetes",
    "type 1 diabetes",
    "asthma",
    "epilepsy",
    "multiple sclerosis",
    "Crohn's disease",
    "ulcerative colitis",
    "endometriosis",
    "PCOS",
    "fibromyalgia",
    "ME/CFS",
    "long covid",
    "depression",
    "generalised anxiety disorder",
    "bipolar disorder",
    "PTSD",
    "ADHD",
    "OCD",
    "anorexia",
    "bulimia",
    "psoriasis",
    "eczema",
    "rheumatoid arthritis",
    "osteoarthritis",
    "hypothyroidism",
    "coeliac disease",
    "IBS",
    "chronic migraine",
    "high blood pressure",
    "atrial fibrillation",
    "heart failure",
    "COPD",
    "breast cancer",
    "prostate cancer",
    "bowel cancer",
    "leukaemia",
    "Hodgkin lymphoma",
    "HIV",
    "hepatitis C",
    "gout",
    "sleep apnoea",
    "glaucoma",
    "tinnitus",
    "lupus",
    "sciatica",
    "kidney stones",
    "postnatal depression",
    "schizophrenia",
    "Parkinson's",
    "early-onset dementia",
    "borderline personality disorder",
    "alcohol dependency",
]
HEALTH_MEDICATIONS = [
    "sertraline",
    "sertraline 100mg",
    "fluoxetine",
    "citalopram 20mg",
    "mirtazapine",
    "venlafaxine",
    "propranolol",
    "metformin",
    "insulin",
    "levothyroxine",
    "ramipril",
    "amlodipine",
    "atorvastatin",
    "omeprazole",
    "lansoprazole",
    "methotrexate",
    "adalimumab",
    "prednisolone",
    "salbutamol",
    "lamotrigine",
    "sodium valproate",
    "lithium",
    "quetiapine",
    "aripiprazole",
    "methylphenidate",
    "lisdexamfetamine",
    "co-codamol",
    "tramadol",
    "gabapentin",
    "pregabalin",
    "naproxen",
    "warfarin",
    "apixaban",
    "HRT patches",
    "PrEP",
    "diazepam",
    "zopiclone",
    "buprenorphine",
    "mesalazine",
    "Ozempic injections",
]
HEALTH_SYMPTOMS = [
    "chest pains",
    "panic attacks",
    "night sweats",
    "memory problems",
    "a breast lump",
    "heart palpitations",
    "shortness of breath",
    "suicidal thoughts",
    "insomnia",
    "dizzy spells",
    "blurred vision",
    "joint pain",
    "a persistent cough",
    "left arm numbness",
    "hair loss",
    "constant nausea",
    "severe headaches",
    "unexplained weight loss",
    "hallucinations",
    "irregular periods",
    "erectile dysfunction",
    "hand tremors",
    "a rash all over the back",
    "lower back pain",
    "swollen ankles",
    "ringing in the ears",
    "blood in the stool",
    "seizures",
    "fainting spells",
    "bladder leaks",
]
HEALTH_TREATMENTS = [
    "chemotherapy",
    "radiotherapy",
    "physiotherapy",
    "IVF",
    "dialysis",
    "CBT",
    "counselling",
    "hip replacement surgery",
    "knee surgery",
    "gallbladder surgery",
    "gastric bypass surgery",
    "heart bypass surgery",
    "ACL reconstruction",
    "hormone therapy",
    "immunotherapy",
    "EMDR therapy",
    "speech therapy",
    "methadone treatment",
    "alcohol rehab",
    "electroconvulsive therapy",
    "bone marrow transplant",
    "cataract surgery",
    "dental implants",
    "laser eye surgery",
    "radioiodine treatment",
    "egg freezing",
]

# ---------------------------------------------------------------------------
# Finance: phrasings that make an amount a person's own money.
# ---------------------------------------------------------------------------
FINANCE_PHRASES = {
    "DEBT": [
        "{a} of credit card debt",
        "{a} in debt",
        "{a} of overdraft debt",
        "{a} in payday loans",
        "{a} of catalogue debt",
        "{a} of council tax debt",
        "{a} on my credit cards",
        "{a} in buy now pay later debt",
        "{a} of debt to family",
    ],
    "SALARY": [
        "{a} a year",
        "{a} per annum",
        "{a} a year before tax",
        "{a} a month after tax",
        "{a} gross",
        "{a} an hour",
    ],
    "SAVINGS": [
        "{a} in savings",
        "{a} saved up",
        "{a} in my isa",
        "{a} in our savings account",
        "{a} put aside",
        "{a} in a savings pot",
    ],
    "BALANCE": [
        "{a} in my current account",
        "{a} left in my account",
        "{a} in my bank",
        "a balance of {a}",
        "{a} left in the joint account",
    ],
    "ARREARS": ["{a} in rent arrears", "{a} of rent arrears", "{a} in arrears on the rent", "{a} of mortgage arrears"],
    "LOAN": [
        "{a} personal loan",
        "{a} car loan",
        "{a} payday loan",
        "{a} mortgage",
        "{a} loan from my parents",
        "{a} student loan",
        "{a} guarantor loan",
    ],
}
FINANCE_RANGES = {
    "DEBT": (400, 38000),
    "SALARY": (18000, 95000),
    "SAVINGS": (300, 60000),
    "BALANCE": (3, 900),
    "ARREARS": (350, 6500),
    "LOAN": (1000, 30000),
}

# ---------------------------------------------------------------------------
# Employers and places of study (invented).
# ---------------------------------------------------------------------------
ORGANISATIONS = [
    "Harrowgate Logistics",
    "Brindlecombe & Marsh Solicitors",
    "Kestrel Byte Systems",
    "Oakridge Dental Practice",
    "Fenwick Vale Builders",
    "Marlowe & Pike Accountants",
    "Tidewater Analytics",
    "Northcott Freight",
    "Silverbirch Care Home",
    "Pennyworth Bakery",
    "Copperleaf Digital",
    "Greyfield Engineering",
    "Hollybank Veterinary Surgery",
    "Bluewren Insurance",
    "Castleton Print Works",
    "Larkspur Lettings",
    "Ashdown Timber Merchants",
    "Wrenfield Pharmacy",
    "Quayside Coffee Roasters",
    "Thistlewood Garden Centre",
    "Redbrook Recruitment",
    "Mossgate Plumbing",
    "Starling Row Architects",
    "Ironmere Steelworks",
    "Fairhaven Hotel Group",
    "Nettlefield Haulage",
    "Brackenridge Solar",
    "Pinecrest Software",
    "Cloverdale Dairies",
    "Kingsmere Estate Agents",
    "Halcyon Hair Studio",
    "Westerleigh Autos",
    "Glenmoor Distillery",
    "Brightwater Nursery",
    "Elmstead Medical Centre",
    "Thornbury Vale Hospital",
    "Saltmarsh Brewing Co",
    "Larchwood Joinery",
    "Blackthorn Security Services",
    "Meadowsweet Florists",
    "Farrowby Contact Solutions",
    "Cinderford Packaging",
    "Hartwell & Daughters Funeral Directors",
    "Orbitek Telecom",
    "Lumenfield Labs",
    "Quillon Publishing",
    "Ravensworth Building Society",
    "Bergmann & Sohn Maschinenbau",
    "Atelier Roussel",
    "Panificio Marchetti",
    "Talleres Irazábal",
    "Nordlys Fiskeri",
    "Järvikoski Design Oy",
    "Vertiz Consultoria",
    "Shantinagar Textiles",
    "Bluegum Landscaping",
    "Foxglove Home Care",
    "Pemberley Print & Post",
    "Ashvale Council Depot",
    "Stonebridge Leisure Centre",
    "Kilnworth Pottery",
    "Drummond Street Surgery",
]
SCHOOLS = [
    "St Aldhelm's Primary School",
    "Hollins Park Academy",
    "Bramley Hill Secondary",
    "Saint Brendan's Grammar",
    "Moorcroft Primary",
    "Ellesborough High School",
    "Linthwaite Junior School",
    "Oakhanger Community School",
    "Wyndham Lane Academy",
    "Greenbank Infant School",
    "Corrie Vale Primary",
    "Holm Oak Free School",
]
UNIVERSITIES = [
    "University of Eastmoor",
    "Kingsbridge College",
    "Westmarch University",
    "Caldermoor Institute of Technology",
    "Riverbend Community College",
    "Ashcombe School of Art",
    "Northgate Sixth Form College",
    "Harlow Fen University",
    "Severnside College of Nursing",
    "Lowther Conservatoire",
    "Brackwater University",
    "Glenavon College",
]

# ---------------------------------------------------------------------------
# Distractors: public figures, fiction, companies, prices, public streets.
# ---------------------------------------------------------------------------
CELEBRITIES = [
    "Taylor Swift",
    "Keir Starmer",
    "Elon Musk",
    "Beyoncé",
    "Harry Kane",
    "Emma Raducanu",
    "David Attenborough",
    "King Charles",
    "Adele",
    "Ed Sheeran",
    "Marcus Rashford",
    "Lewis Hamilton",
    "Dua Lipa",
    "Stormzy",
    "Gary Lineker",
    "Zendaya",
    "Lionel Messi",
    "Novak Djokovic",
    "Greta Thunberg",
    "Rihanna",
    "Bukayo Saka",
    "Florence Pugh",
    "Idris Elba",
    "Billie Eilish",
]
FICTION = [
    "Sherlock Holmes",
    "Hermione Granger",
    "Frodo Baggins",
    "Bridget Jones",
    "Paddington Bear",
    "Elizabeth Bennet",
    "Walter White",
    "Homer Simpson",
    "Daenerys Targaryen",
    "Jack Sparrow",
    "Miss Marple",
    "Peter Rabbit",
    "Mr Bean",
    "Jay Gatsby",
    "Bilbo Baggins",
    "Gromit",
]
COMPANIES = [
    "Tesco",
    "Sainsbury's",
    "Greggs",
    "Marks & Spencer",
    "Boots",
    "Vodafone",
    "Barclays",
    "Ryanair",
    "Rolls-Royce",
    "Unilever",
    "BT",
    "John Lewis",
    "Aldi",
    "Primark",
]
PRODUCTS = [
    ("iPhone", "£799"),
    ("PS5", "£479.99"),
    ("Nintendo Switch", "£259"),
    ("Dyson hoover", "£399"),
    ("air fryer", "£89.99"),
    ("Kindle", "£94.99"),
    ("Galaxy phone", "£649"),
    ("AirPods", "£179"),
    ("electric scooter", "£349"),
    ("pair of Doc Martens", "£169"),
    ("Lego Millennium Falcon", "£734.99"),
    ("coffee machine", "£129"),
    ("robot hoover", "£229"),
    ("smart watch", "£279"),
]
PUBLIC_STREETS = [
    "Oxford Street",
    "Baker Street",
    "Princes Street",
    "Deansgate",
    "the Royal Mile",
    "Bold Street",
    "Regent Street",
    "the Champs-Élysées",
    "Las Ramblas",
    "Fifth Avenue",
    "Carnaby Street",
    "Abbey Road",
    "Portobello Road",
    "Grafton Street",
    "Kurfürstendamm",
]
CITIES = [
    "London",
    "Manchester",
    "Edinburgh",
    "Lisbon",
    "Barcelona",
    "Kraków",
    "Prague",
    "Bristol",
    "Oslo",
    "Tokyo",
    "Glasgow",
    "Dublin",
    "Liverpool",
    "Copenhagen",
]
HELPLINE_COMPANIES = [
    "Voltaris Energy",
    "Nimbus Broadband",
    "ParcelSwift",
    "Brightline Water",
    "Homeguard Insurance",
    "Trackside Trains",
    "Skylark Mobile",
    "Evergreen Gas",
]
HELPLINE_PREFIXES = ["0800", "0345", "0330", "0300", "0808"]
GENERAL_CONDITIONS = [
    "norovirus",
    "chickenpox",
    "hay fever",
    "the common cold",
    "flu",
    "head lice",
    "measles",
    "shingles",
    "whooping cough",
    "strep A",
]
JOBS = [
    "teacher",
    "nurse",
    "plumber",
    "software developer",
    "paramedic",
    "electrician",
    "social worker",
    "train driver",
]
MONTHS = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
]
BIG_NUMBERS = ["500", "1,200", "2,000", "3,500", "10,000", "800"]


# ---------------------------------------------------------------------------
# Helpers.
# ---------------------------------------------------------------------------
class Deck:
    """Hand out values in shuffled order and reshuffle when empty, so repeats stay rare."""

    def __init__(self, rng, values):
        self.rng = rng
        self.values = list(values)
        self.pool = []

    def draw(self):
        if not self.pool:
            self.pool = list(self.values)
            self.rng.shuffle(self.pool)
        return self.pool.pop()


def to_ascii(text):
    """Strip accents for e-mail local parts."""
    fixed = "".join(ASCII_FIX.get(ch, ch) for ch in text)
    decomposed = unicodedata.normalize("NFKD", fixed)
    kept = [ch for ch in decomposed if not unicodedata.combining(ch)]
    return "".join(ch for ch in "".join(kept) if ch.isascii() and ch.isalnum()).lower()


def digits(rng, count):
    return "".join(str(rng.randint(0, 9)) for _ in range(count))


def luhn_check_digit(partial):
    """Check digit that makes partial + digit pass the Luhn test."""
    total = 0
    for position, ch in enumerate(reversed(partial)):
        value = int(ch)
        if position % 2 == 0:
            value *= 2
            if value > 9:
                value -= 9
        total += value
    return str((10 - total % 10) % 10)


def luhn_valid(number):
    total = 0
    for position, ch in enumerate(reversed(number)):
        value = int(ch)
        if position % 2 == 1:
            value *= 2
            if value > 9:
                value -= 9
        total += value
    return total % 10 == 0


def iban_numeric(text):
    return "".join(str(int(ch, 36)) for ch in text)


def iban_check_digits(country, bban):
    remainder = int(iban_numeric(bban + country + "00")) % 97
    return "%02d" % (98 - remainder)


def iban_valid(iban):
    compact = iban.replace(" ", "")
    return int(iban_numeric(compact[4:] + compact[:4])) % 97 == 1


def group_by_four(text):
    return " ".join(text[i : i + 4] for i in range(0, len(text), 4))


def thousands(amount):
    return "{:,}".format(amount)


IBAN_BANK_CODES = {
    "GB": ["NWBK", "BARC", "LOYD", "HBUK", "MIDL", "NAIA", "SRLG"],
    "IE": ["AIBK", "BOFI", "IPBS"],
    "NL": ["ABNA", "INGB", "RABO", "TRIO", "SNSB"],
}
IBAN_COUNTRIES = ["GB", "GB", "GB", "DE", "FR", "ES", "IT", "NL", "PL", "IE", "BE", "CZ", "SE"]
CARD_BRANDS = ["visa", "visa", "visa", "mastercard", "mastercard", "mastercard2", "amex", "discover"]
PHONE_COUNTRIES = ["uk", "uk", "uk", "uk", "us", "de", "fr", "es", "it", "pl", "se", "in", "au", "br", "ie", "nl", "jp"]
UK_POSTCODE_LETTERS = "ABDEFGHJLNPQRSTUWXYZ"
ES_DC_WEIGHTS = [1, 2, 4, 8, 5, 10, 9, 7, 3, 6]


def spanish_control_digit(ten_digits):
    total = sum(int(d) * w for d, w in zip(ten_digits, ES_DC_WEIGHTS))
    value = 11 - total % 11
    if value == 11:
        return "0"
    if value == 10:
        return "1"
    return str(value)


class ValueMaker:
    """Fills every slot of a template; one method per slot."""

    def __init__(self, rng):
        self.rng = rng
        pairs = []
        for culture, (firsts, _surnames) in NAMES_BY_CULTURE.items():
            for first in firsts:
                pairs.append((culture, first))
        self.first_deck = Deck(rng, pairs)
        self.surname_decks = {}
        for culture, (_firsts, surnames) in NAMES_BY_CULTURE.items():
            self.surname_decks[culture] = Deck(rng, surnames)
        self.street_decks = {}
        for country, streets in STREETS.items():
            self.street_decks[country] = Deck(rng, streets)
        countries = []
        for country, weight in COUNTRY_WEIGHTS:
            countries.extend([country] * weight)
        self.country_deck = Deck(rng, countries)
        self.domain_deck = Deck(rng, EMAIL_DOMAINS)
        self.phone_deck = Deck(rng, PHONE_COUNTRIES)
        self.iban_deck = Deck(rng, IBAN_COUNTRIES)
        self.card_deck = Deck(rng, CARD_BRANDS)
        self.decks = {
            "COND": Deck(rng, HEALTH_CONDITIONS),
            "MED": Deck(rng, HEALTH_MEDICATIONS),
            "SYMPTOM": Deck(rng, HEALTH_SYMPTOMS),
            "TREAT": Deck(rng, HEALTH_TREATMENTS),
            "ORG": Deck(rng, ORGANISATIONS),
            "SCHOOL": Deck(rng, SCHOOLS),
            "UNI": Deck(rng, UNIVERSITIES),
            "celeb": Deck(rng, CELEBRITIES),
            "fiction": Deck(rng, FICTION),
            "company": Deck(rng, COMPANIES),
            "street": Deck(rng, PUBLIC_STREETS),
            "city": Deck(rng, CITIES),
            "helpco": Deck(rng, HELPLINE_COMPANIES),
            "gencond": Deck(rng, GENERAL_CONDITIONS),
            "job": Deck(rng, JOBS),
            "month": Deck(rng, MONTHS),
            "bignum": Deck(rng, BIG_NUMBERS),
        }
        self.phrase_decks = {}
        for kind, phrases in FINANCE_PHRASES.items():
            self.phrase_decks[kind] = Deck(rng, phrases)
        self.product_deck = Deck(rng, PRODUCTS)
        self.current_price = PRODUCTS[0][1]

    # -- names --------------------------------------------------------------
    def person(self):
        culture, first = self.first_deck.draw()
        return first, self.surname_decks[culture].draw()

    def first_name(self):
        return self.person()[0]

    def full_name(self):
        first, surname = self.person()
        return first + " " + surname

    def titled_name(self):
        first, surname = self.person()
        if self.rng.random() < 0.3:
            return "Dr " + first + " " + surname
        return self.rng.choice(TITLES) + " " + surname

    # -- addresses ----------------------------------------------------------
    def street(self, country):
        return self.street_decks[country].draw()

    def uk_postcode(self, outward):
        rng = self.rng
        inward = str(rng.randint(1, 9)) + rng.choice(UK_POSTCODE_LETTERS) + rng.choice(UK_POSTCODE_LETTERS)
        return outward + " " + inward

    def address(self):
        country = self.country_deck.draw()
        method = getattr(self, "address_" + country)
        return method()

    def address_uk(self):
        rng = self.rng
        town, outwards = rng.choice(UK_TOWNS)
        postcode = self.uk_postcode(rng.choice(outwards))
        line = "%d %s" % (rng.randint(1, 240), self.street("uk"))
        form = rng.randint(0, 4)
        if form == 0:
            return line
        if form == 1:
            return line + ", " + town
        if form == 2:
            return line + ", " + town + " " + postcode
        if form == 3:
            return "flat %d, %s, %s %s" % (rng.randint(1, 12), line, town, postcode)
        return line + ", " + town + ", " + postcode

    def address_us(self):
        rng = self.rng
        city, state, prefix = rng.choice(US_CITIES)
        zipcode = prefix + digits(rng, 2)
        line = "%d %s" % (rng.randint(12, 9800), self.street("us"))
        form = rng.randint(0, 2)
        if form == 0:
            return line
        if form == 1:
            return "%s, apt %d, %s, %s %s" % (line, rng.randint(1, 40), city, state, zipcode)
        return "%s, %s, %s %s" % (line, city, state, zipcode)

    def address_de(self):
        rng = self.rng
        city, prefix = rng.choice(DE_CITIES)
        number = str(rng.randint(1, 140)) + rng.choice(["", "", "", "a", "b"])
        line = self.street("de") + " " + number
        if rng.random() < 0.25:
            return line
        return "%s, %s%s %s" % (line, prefix, digits(rng, 3), city)

    def address_fr(self):
        rng = self.rng
        city, codes = rng.choice(FR_CITIES)
        number = str(rng.randint(1, 120)) + rng.choice(["", "", "", " bis"])
        line = number + " " + self.street("fr")
        if rng.random() < 0.2:
            return line
        return "%s, %s %s" % (line, rng.choice(codes), city)

    def address_es(self):
        rng = self.rng
        city, prefix = rng.choice(ES_CITIES)
        line = "%s %d" % (self.street("es"), rng.randint(1, 180))
        floor = "%dº %s" % (rng.randint(1, 8), rng.choice("ABCD"))
        if rng.random() < 0.5:
            return "%s, %s, %s%s %s" % (line, floor, prefix, digits(rng, 2), city)
        return "%s, %s%s %s" % (line, prefix, digits(rng, 2), city)

    def address_it(self):
        rng = self.rng
        city, prefix, province = rng.choice(IT_CITIES)
        line = "%s %d" % (self.street("it"), rng.randint(1, 200))
        return "%s, %s%s %s %s" % (line, prefix, digits(rng, 2), city, province)

    def address_pl(self):
        rng = self.rng
        city, prefixes = rng.choice(PL_CITIES)
        number = str(rng.randint(1, 150))
        if rng.random() < 0.6:
            number += "/" + str(rng.randint(1, 60))
        code = rng.choice(prefixes) + "-" + digits(rng, 3)
        return "%s %s, %s %s" % (self.street("pl"), number, code, city)

    def address_cz(self):
        rng = self.rng
        city, code = rng.choice(CZ_CITIES)
        number = "%d/%d" % (rng.randint(100, 2900), rng.randint(1, 80))
        return "%s %s, %s %s" % (self.street("cz"), number, code, city)

    def address_se(self):
        rng = self.rng
        city, prefix = rng.choice(SE_CITIES)
        line = "%s %d" % (self.street("se"), rng.randint(1, 90))
        if rng.random() < 0.3:
            line += " lgh %d" % rng.randint(1001, 1404)
        return "%s, %s%s %s %s" % (line, prefix, digits(rng, 1), digits(rng, 2), city)

    def address_no(self):
        rng = self.rng
        city, prefix = rng.choice(NO_CITIES)
        code = prefix + digits(rng, 4 - len(prefix))
        number = str(rng.randint(1, 80)) + rng.choice(["", "", "A", "B"])
        return "%s %s, %s %s" % (self.street("no"), number, code, city)

    def address_fi(self):
        rng = self.rng
        city, prefix = rng.choice(FI_CITIES)
        line = "%s %d" % (self.street("fi"), rng.randint(1, 70))
        if rng.random() < 0.5:
            line += " %s %d" % (rng.choice("ABC"), rng.randint(1, 40))
        return "%s, %s%s0 %s" % (line, prefix, digits(rng, 2), city)

    def address_br(self):
        rng = self.rng
        city, state, prefix = rng.choice(BR_CITIES)
        cep = prefix + digits(rng, 4) + "-" + digits(rng, 3)
        line = "%s, %d" % (self.street("br"), rng.randint(10, 3200))
        if rng.random() < 0.5:
            line += ", apto %d" % rng.randint(11, 184)
        return "%s, %s - %s, %s" % (line, city, state, cep)

    def address_ar(self):
        rng = self.rng
        city, prefix = rng.choice(AR_CITIES)
        line = "%s %d" % (self.street("ar"), rng.randint(100, 4800))
        if rng.random() < 0.5:
            line += ", piso %d %s" % (rng.randint(1, 14), rng.choice("ABCD"))
        return "%s, %s%s %s" % (line, prefix, digits(rng, 3), city)

    def address_in(self):
        rng = self.rng
        city, prefix = rng.choice(IN_CITIES)
        line = "%d %s" % (rng.randint(1, 300), self.street("in"))
        if rng.random() < 0.5:
            line = "Flat %d%s, %s" % (rng.randint(1, 12), rng.choice("ABCD"), line)
        return "%s, %s %s%s" % (line, city, prefix, digits(rng, 3))

    def address_jp(self):
        rng = self.rng
        area, ward, city, prefix = rng.choice(JP_AREAS)
        block = "%d-%d-%d" % (rng.randint(1, 6), rng.randint(1, 25), rng.randint(1, 20))
        line = "%s %s, %s, %s %s-%s" % (block, area, ward, city, prefix, digits(rng, 4))
        if rng.random() < 0.4:
            line = "%s %d, %s" % (rng.choice(JP_BUILDINGS), rng.randint(101, 905), line)
        return line

    def address_au(self):
        rng = self.rng
        suburb, state, code = rng.choice(AU_SUBURBS)
        line = "%d %s" % (rng.randint(1, 180), self.street("au"))
        if rng.random() < 0.35:
            line = "Unit %d/%s" % (rng.randint(1, 20), line)
        return "%s, %s %s %s" % (line, suburb, state, code)

    def address_ie(self):
        rng = self.rng
        town, routing = rng.choice(IE_TOWNS)
        eircode = (
            routing
            + " "
            + rng.choice("ACDEFHKNPRTVWXY")
            + digits(rng, 1)
            + rng.choice("ACDEFHKNPRTVWXY")
            + digits(rng, 1)
        )
        line = "%d %s" % (rng.randint(1, 150), self.street("ie"))
        return "%s, %s, %s" % (line, town, eircode)

    def address_nl(self):
        rng = self.rng
        city, prefix = rng.choice(NL_CITIES)
        number = str(rng.randint(1, 400)) + rng.choice(["", "", "-1", "-2", "A"])
        code = "%s%s %s%s" % (prefix, digits(rng, 2), rng.choice("BDGHJKLMNPRSTVWXZ"), rng.choice("ABCEGHJKLMNPRSTVWX"))
        return "%s %s, %s %s" % (self.street("nl"), number, code, city)

    # -- contact details ----------------------------------------------------
    def email(self):
        rng = self.rng
        first, surname = self.person()
        first_ascii = to_ascii(first)
        last_ascii = to_ascii(surname)
        form = rng.randint(0, 6)
        if form == 0:
            local = first_ascii + "." + last_ascii
        elif form == 1:
            local = first_ascii + last_ascii + str(rng.randint(1, 99))
        elif form == 2:
            local = first_ascii[0] + "." + last_ascii
        elif form == 3:
            local = first_ascii + "_" + last_ascii + str(rng.randint(1970, 2006))
        elif form == 4:
            local = last_ascii + "." + first_ascii[:3] + str(rng.randint(1, 9))
        elif form == 5:
            local = first_ascii + str(rng.randint(100, 999))
        else:
            local = first_ascii[:1] + last_ascii + rng.choice(["x", "xo", "_home", ".uk", "22"])
        return local + "@" + self.domain_deck.draw()

    def phone(self):
        country = self.phone_deck.draw()
        international = self.rng.random() < 0.45
        method = getattr(self, "phone_" + country)
        return method(international)

    def phone_uk(self, international):
        rng = self.rng
        if rng.random() < 0.75:
            body = "7" + str(rng.randint(4, 9)) + digits(rng, 2)
            rest = digits(rng, 6)
            if international:
                return "+44 %s %s" % (body, rest)
            return "0%s %s" % (body, rest)
        area = rng.choice(["20", "161", "113", "117", "141", "131", "121", "29"])
        if area == "20":
            rest = "%s %s" % (rng.choice(["7", "8", "3"]) + digits(rng, 3), digits(rng, 4))
        elif len(area) == 2:
            rest = "%s %s" % (digits(rng, 4), digits(rng, 4))
        else:
            rest = "%s %s" % (digits(rng, 3), digits(rng, 4))
        if international:
            return "+44 %s %s" % (area, rest)
        return "0%s %s" % (area, rest)

    def phone_us(self, international):
        rng = self.rng
        area = rng.choice(["212", "415", "617", "312", "503", "512", "206", "720"])
        line = "555-01" + digits(rng, 2)
        if international:
            return "+1 %s-%s" % (area, line)
        return "(%s) %s" % (area, line)

    def phone_de(self, international):
        rng = self.rng
        body = rng.choice(["151", "160", "170", "176"]) + " " + digits(rng, 8)
        if international:
            return "+49 " + body
        return "0" + body

    def phone_fr(self, international):
        rng = self.rng
        pairs = " ".join(digits(self.rng, 2) for _ in range(4))
        lead = rng.choice(["6", "7"])
        if international:
            return "+33 %s %s" % (lead, pairs)
        return "0%s %s" % (lead, pairs)

    def phone_es(self, international):
        rng = self.rng
        if international:
            return "+34 6%s %s %s" % (digits(rng, 2), digits(rng, 3), digits(rng, 3))
        return "6%s %s %s %s" % (digits(rng, 2), digits(rng, 2), digits(rng, 2), digits(rng, 2))

    def phone_it(self, international):
        rng = self.rng
        body = "3%s %s %s" % (digits(rng, 2), digits(rng, 3), digits(rng, 4))
        if international:
            return "+39 " + body
        return body

    def phone_pl(self, international):
        rng = self.rng
        body = "%s %s %s" % (rng.choice(["5", "6", "7"]) + digits(rng, 2), digits(rng, 3), digits(rng, 3))
        if international:
            return "+48 " + body
        return body

    def phone_se(self, international):
        rng = self.rng
        lead = rng.choice(["70", "72", "73", "76"])
        rest = "%s %s %s" % (digits(rng, 3), digits(rng, 2), digits(rng, 2))
        if international:
            return "+46 %s %s" % (lead, rest)
        return "0%s-%s" % (lead, rest)

    def phone_in(self, international):
        rng = self.rng
        body = "%s %s" % (rng.choice(["9", "8", "7"]) + digits(rng, 4), digits(rng, 5))
        if international:
            return "+91 " + body
        return body

    def phone_au(self, international):
        rng = self.rng
        body = "4%s %s %s" % (digits(rng, 2), digits(rng, 3), digits(rng, 3))
        if international:
            return "+61 " + body
        return "0" + body

    def phone_br(self, international):
        rng = self.rng
        area = rng.choice(["11", "21", "31", "41", "51", "71"])
        body = "9%s-%s" % (digits(rng, 4), digits(rng, 4))
        if international:
            return "+55 %s %s" % (area, body)
        return "(%s) %s" % (area, body)

    def phone_ie(self, international):
        rng = self.rng
        lead = rng.choice(["83", "85", "86", "87", "89"])
        rest = "%s %s" % (digits(rng, 3), digits(rng, 4))
        if international:
            return "+353 %s %s" % (lead, rest)
        return "0%s %s" % (lead, rest)

    def phone_nl(self, international):
        rng = self.rng
        rest = digits(rng, 8)
        if international:
            return "+31 6 " + rest
        return "06 " + rest

    def phone_jp(self, international):
        rng = self.rng
        lead = rng.choice(["90", "80", "70"])
        rest = "%s-%s" % (digits(rng, 4), digits(rng, 4))
        if international:
            return "+81 %s-%s" % (lead, rest)
        return "0%s-%s" % (lead, rest)

    # -- bank details -------------------------------------------------------
    def bban(self, country):
        rng = self.rng
        if country in IBAN_BANK_CODES and country != "NL":
            return rng.choice(IBAN_BANK_CODES[country]) + digits(rng, 14)
        if country == "NL":
            return rng.choice(IBAN_BANK_CODES["NL"]) + digits(rng, 10)
        if country == "DE":
            return digits(rng, 18)
        if country == "FR":
            bank = digits(rng, 5)
            branch = digits(rng, 5)
            account = digits(rng, 11)
            key = 97 - (89 * int(bank) + 15 * int(branch) + 3 * int(account)) % 97
            return bank + branch + account + "%02d" % key
        if country == "ES":
            bank = digits(rng, 4)
            branch = digits(rng, 4)
            account = digits(rng, 10)
            control = spanish_control_digit("00" + bank + branch) + spanish_control_digit(account)
            return bank + branch + control + account
        if country == "IT":
            return rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ") + digits(rng, 10) + digits(rng, 12)
        if country == "PL":
            return digits(rng, 24)
        if country == "BE":
            first = digits(rng, 10)
            check = int(first) % 97
            if check == 0:
                check = 97
            return first + "%02d" % check
        return digits(rng, 20)

    def iban(self):
        country = self.iban_deck.draw()
        bban = self.bban(country)
        compact = country + iban_check_digits(country, bban) + bban
        if self.rng.random() < 0.6:
            return group_by_four(compact)
        return compact

    def card(self):
        rng = self.rng
        brand = self.card_deck.draw()
        if brand == "visa":
            partial = "4" + digits(rng, 14)
        elif brand == "mastercard":
            partial = "5" + str(rng.randint(1, 5)) + digits(rng, 13)
        elif brand == "mastercard2":
            partial = str(rng.randint(2221, 2720)) + digits(rng, 11)
        elif brand == "amex":
            partial = rng.choice(["34", "37"]) + digits(rng, 12)
        else:
            partial = "6011" + digits(rng, 11)
        number = partial + luhn_check_digit(partial)
        if rng.random() < 0.45:
            return number
        if len(number) == 15:
            return "%s %s %s" % (number[:4], number[4:10], number[10:])
        return group_by_four(number)

    # -- health, money, employers -------------------------------------------
    def drawn(self, key):
        return self.decks[key].draw()

    def money(self, kind):
        rng = self.rng
        low, high = FINANCE_RANGES[kind]
        currency = rng.choice(["£", "£", "£", "£", "£", "€", "$"])
        phrase = self.phrase_decks[kind].draw()
        if kind == "SALARY" and phrase == "{a} an hour":
            amount_text = "%s%d.%02d" % (currency, rng.randint(10, 24), rng.randint(0, 99))
        elif kind == "SALARY" and phrase == "{a} a month after tax":
            amount_text = currency + thousands(rng.randint(1400, 4600))
        elif kind == "BALANCE":
            amount_text = "%s%d.%02d" % (currency, rng.randint(low, high), rng.randint(0, 99))
        else:
            amount = rng.randint(low, high)
            if amount > 2000:
                amount = amount // 50 * 50
            style = rng.randint(0, 4)
            if style == 0 and currency == "£" and amount < 20000:
                amount_text = thousands(amount) + " quid"
            elif style == 1 and amount >= 1000:
                amount_text = "%s%.1fk" % (currency, amount / 1000.0)
                amount_text = amount_text.replace(".0k", "k")
            elif style == 2:
                amount_text = currency + str(amount)
            else:
                amount_text = currency + thousands(amount)
        return phrase.replace("{a}", amount_text)

    # -- distractor fillers (never spans) -----------------------------------
    def product(self):
        name, price = self.product_deck.draw()
        self.current_price = price
        return name

    def price(self):
        return self.current_price

    def helpline(self):
        rng = self.rng
        return "%s %s %s" % (rng.choice(HELPLINE_PREFIXES), digits(rng, 3), digits(rng, 4))

    def pct(self):
        return str(self.rng.randint(2, 14))


# ---------------------------------------------------------------------------
# Templates. Upper-case slots become spans; lower-case slots are distractors.
# ---------------------------------------------------------------------------
SLOT_TYPES = {
    "FIRST": "REAL_NAME",
    "FULL": "REAL_NAME",
    "TITLED": "REAL_NAME",
    "ADDRESS": "ADDRESS",
    "EMAIL": "EMAIL",
    "PHONE": "PHONE",
    "IBAN": "IBAN",
    "CARD": "CREDIT_CARD",
    "COND": "HEALTH",
    "MED": "HEALTH",
    "SYMPTOM": "HEALTH",
    "TREAT": "HEALTH",
    "DEBT": "FINANCE",
    "SALARY": "FINANCE",
    "SAVINGS": "FINANCE",
    "BALANCE": "FINANCE",
    "ARREARS": "FINANCE",
    "LOAN": "FINANCE",
    "ORG": "EMPLOYER",
    "SCHOOL": "EMPLOYER",
    "UNI": "EMPLOYER",
}

PII_TEMPLATES = [
    # names
    "my flatmate {FULL} keeps eating my food, how do i bring it up without a row?",
    "can you help me write a birthday message for my nan? her name is {FIRST}",
    "hey it's {FIRST}, i forgot my password again lol",
    "write a reference letter for {FULL}, she worked with me for 3 yrs",
    "my son's teacher {TITLED} says he's falling behind in maths, what can i do",
    "me and {FIRST} broke up last night and i can't stop crying",
    "my landlord {TITLED} won't return my deposit, what are my rights",
    "need a wedding toast for my best mate {FIRST}, he's marrying {FIRST} in june",
    "my ex {FULL} keeps messaging me from new accounts, how do i block him properly",
    "my dad {FULL} passed away in march, how do i write the eulogy",
    "who should i invite: {FIRST}, {FIRST} or my cousin {FULL}?",
    "write a short poem for my wife {FIRST}, it's our 10th anniversary",
    "{TITLED} at the surgery was so rude to my mum today",
    "got a letter addressed to {FULL} but they moved out ages ago, what do i do with it",
    "translate into french pls: dear {FULL}, thank you for the lovely dinner",
    # addresses
    "i live at {ADDRESS}, which council do i contact about bins?",
    "pls send the parcel to {ADDRESS}, i'll be in all day",
    "my new place is {ADDRESS}, can you help me write a change of address letter",
    "we're moving out of {ADDRESS} next month, what do i need to cancel?",
    "the party is at {ADDRESS}, bring a bottle!",
    "my mum {FULL} still lives at {ADDRESS} and the boiler's broken again",
    "can you format this for an envelope: {FULL}, {ADDRESS}",
    "the burglary happened at {ADDRESS} on tuesday night, how do i get a crime ref",
    "i'm at {ADDRESS}, not the house opposite, the driver keeps getting it wrong",
    "my grandparents' old house at {ADDRESS} is up for sale",
    "send the wedding invite to {TITLED} at {ADDRESS} please",
    "there's damp everywhere at {ADDRESS} and my landlord {TITLED} ignores me",
    "fill in the removal quote for me: from {ADDRESS} to {ADDRESS}",
    "kids' sleepover will be at ours, {ADDRESS}, from 6pm",
    "hey {FIRST}, the keys are under the mat at {ADDRESS}",
    "{FIRST}'s new address is {ADDRESS}",
    "my name's {FULL} and i live at {ADDRESS}",
    "can you write a complaint to the council? i'm {FULL} of {ADDRESS} and the streetlight's been out for weeks",
    "i grew up at {ADDRESS} and just drove past it, so emotional",
    "my address on my driving licence is still {ADDRESS}, do i need to update it?",
    "meet at mine: {ADDRESS}",
    "{TITLED} from {ADDRESS} complained about our dog barking",
    # e-mail
    "my email is {EMAIL}, can you remind me what to write in the subject line?",
    "i can't log in with {EMAIL}, it says account not found",
    "is {EMAIL} professional enough for job applications?",
    "my old email {EMAIL} got hacked, what should i do first",
    "cc my sister {FIRST} on the reply, she's {EMAIL}",
    "got a weird email to {EMAIL} saying i won a prize, scam?",
    "email {FULL} at {EMAIL} about the lift share",
    "{FIRST}'s email changed to {EMAIL}",
    "my recovery email is {EMAIL} but i can't get into it anymore",
    "for the school trip form, parent email is {EMAIL}",
    "pls share the holiday photos with {FULL}, {EMAIL}",
    "i keep getting spam at {EMAIL} since i entered that competition",
    "{FULL} ({EMAIL}) is my emergency contact",
    "my cv has {EMAIL} on it, should i make a more grown up one?",
    "can u draft a reply to {FIRST} at {EMAIL}, she asked about the puppy",
    "email me the recipe at {EMAIL}",
    "is {EMAIL} on any data breach lists?",
    "my uni email is about to expire, forward everything to {EMAIL}",
    "the estate agent says they emailed {EMAIL} but i never got anything",
    "hi, i'm {FULL}, my email is {EMAIL}, pls get back to me about the room",
    # phone
    "my number is {PHONE}, text me when you're outside",
    "call me on {PHONE} after 6",
    "my mum's mobile is {PHONE}, put it down as emergency contact",
    "someone keeps calling me from {PHONE} and hanging up, it's a private mobile",
    "new number!! {PHONE} save it",
    "whatsapp me on {PHONE}",
    "text {FIRST} on {PHONE} to confirm the booking",
    "{FIRST}'s number is {PHONE}",
    "can you write a text to my brother {FIRST} at {PHONE} saying i'm running late",
    "lost my phone, my number was {PHONE}, how do i block the sim",
    "my daughter {FIRST} is on {PHONE} in case of emergency",
    "the babysitter's number is {PHONE}, she's called {FIRST}",
    "my landline is {PHONE} but i rarely answer it",
    "update my contact number to {PHONE}",
    "my nan only picks up if you ring {PHONE} twice",
    "selling my bike, anyone interested can call {PHONE}",
    "friend's number abroad is {PHONE}, how much will it cost to call?",
    "please call {FIRST} on {PHONE}, she's expecting you",
    "my grandad {FULL} is on {PHONE}, can you set me a reminder to ring him sundays",
    "someone's using {PHONE} to scam my friends and it's my actual number",
    # iban
    "my iban is {IBAN}, can you check it's valid?",
    "pls transfer the rent to {IBAN}",
    "send your share of the holiday to {IBAN}",
    "is it safe to give my iban {IBAN} to a buyer on vinted?",
    "can you fill in this form: account holder {FULL}, iban {IBAN}",
    "pls pay {FULL}, iban {IBAN}, for the sofa",
    "refund {FULL} to {IBAN}, she returned the dress",
    "my mum's account is {IBAN}, how long does a sepa transfer take?",
    "write a message to my tenant {FIRST} with the new iban {IBAN}",
    "the iban {IBAN} might have a typo, can you check the check digits",
    "for the wedding gift, here's our account: {IBAN}",
    "i gave {IBAN} to a guy on facebook marketplace, should i worry?",
    "bank transfer: {FULL}, {IBAN}, reference rent march",
    "my child benefit goes to {IBAN}",
    "can you format {IBAN} in groups of four?",
    "i'm {FULL}, account {IBAN}, and i'd like to dispute a charge",
    "my old account {IBAN} is closed, don't use it",
    "erasmus grant will be paid into {IBAN}",
    "standing order to {IBAN} every month for my son {FIRST}",
    "can someone steal from me if they know my iban {IBAN}?",
    # cards
    "my card number is {CARD}, why was it declined?",
    "someone used my card {CARD} online, what do i do",
    "can you check if {CARD} passes the luhn check?",
    "my mum {FULL} has card {CARD}, can she order online for me?",
    "the card {CARD} belongs to {FULL}, she said i could use it",
    "the shop charged {CARD} twice",
    "my dad's credit card is {CARD}, can i use it for the flights?",
    "cancelled card {CARD} is still being charged by a streaming service??",
    "i typed {CARD} into a dodgy site, help",
    "new card arrived: {CARD}",
    "is {CARD} a visa or a mastercard?",
    "my debit card {CARD} got swallowed by the cash machine",
    "found my old card {CARD} in a drawer, is it still active?",
    "{FIRST} lent me her card, {CARD}, is that allowed for hotel bookings?",
    "my card {CARD} was cloned at a petrol station",
    "how do i freeze {CARD} in my banking app",
    "kids used {CARD} on a game without asking",
    "i don't recognise a charge on {CARD}",
    "my husband {FIRST}'s card {CARD} has been blocked",
    "gym took money from {CARD} after i cancelled",
    # health
    "i was diagnosed with {COND} last year and i'm still struggling",
    "been on {MED} for 3 months, is it normal to feel tired?",
    "i've had {SYMPTOM} for two weeks now, should i see a gp?",
    "starting {TREAT} on monday and i'm terrified",
    "my husband {FIRST} has {COND}, how can i support him?",
    "can i drink alcohol while taking {MED}?",
    "my friend {FIRST} has {COND} and i don't know how to help",
    "my son {FIRST} was just diagnosed with {COND}, what now",
    "recovering from {TREAT}, how long before i can drive?",
    "pharmacy ran out of my {MED}, what do i do",
    "is {SYMPTOM} a sign of something serious? i'm 42",
    "my mum {FULL} starts {TREAT} next week, what should she pack",
    "i haven't told anyone about my {COND}",
    "my girlfriend {FIRST} has {SYMPTOM} and won't see a doctor",
    "can {MED} cause {SYMPTOM}?",
    "they've referred me for {TREAT} because of my {COND}",
    "my doctor put me on {MED} for my {COND}",
    "i'm {FIRST} and i have {COND}, ask me anything",
    "i'm {FULL}, born 1988, and i've had {SYMPTOM} for months",
    "weaning off {MED} and feeling awful",
    "write a note for school: my daughter {FIRST} has {COND} and may need breaks",
    "my carer {FIRST} collects my {MED} every friday",
    # finance
    "i have {DEBT} and i don't know where to start",
    "i'm on {SALARY}, can i afford a flat in manchester?",
    "we've got {SAVINGS}, should we overpay the mortgage?",
    "only {BALANCE} until payday and it's the 18th",
    "landlord's letter says i owe {ARREARS}",
    "took out a {LOAN} for the car, was that stupid?",
    "how long to clear {DEBT} paying a bit every month?",
    "my brother {FULL} has {DEBT} and wants to borrow from me",
    "{FIRST} has {ARREARS} and her landlord is threatening court",
    "i've got {DEBT} but also {SAVINGS}, which do i tackle first",
    "i have {DEBT}, {ARREARS} and i'm only on {SALARY}",
    "my offer is {SALARY}, should i negotiate?",
    "i've managed to build up {SAVINGS} this year!!",
    "my dad left {DEBT} when he died, am i liable?",
    "bank app shows {BALANCE} and rent is due friday",
    "my partner {FIRST} is on {SALARY} and i earn less, how do we split bills fairly",
    "still paying back a {LOAN} from years ago",
    "i'm drowning in {DEBT}",
    "got a pay rise to {SALARY}!!",
    "should i use {SAVINGS} to clear {DEBT}?",
    "my mum {FULL} has {SAVINGS} and no will, what happens",
    "i'm {FIRST}, 23, with {DEBT}, is that a lot for my age?",
    # employers
    "i work at {ORG}, can you help me ask for a pay rise?",
    "just got a job offer from {ORG}!!",
    "i've been at {ORG} for 6 years and feel stuck",
    "i study at {UNI}, is there a student discount for railcards?",
    "write my resignation letter to {ORG}",
    "started my apprenticeship at {ORG} today",
    "my wife {FIRST} teaches at {SCHOOL}",
    "got made redundant from {ORG} after 12 years",
    "i'm doing my phd at {UNI} and my supervisor {TITLED} ghosts me",
    "interview at {ORG} tomorrow, what should i ask them",
    "{TITLED} at {ORG} said my contract won't be renewed",
    "my sister {FIRST} got a job at {ORG}, so proud",
    "i'm in my final year at {UNI}",
    "write a leaving speech for my last day at {ORG}",
    "my boss {FULL} at {ORG} asked me to work unpaid overtime",
    "i teach chemistry at {SCHOOL}",
    "my son just started year 7 at {SCHOOL}",
    "HR at {ORG} won't give me my payslips",
    "my brother {FIRST} works at {ORG}, could he get me in?",
    "my mum's been a cleaner at {ORG} for 20 years",
    "what's the dress code like at {ORG}? i start monday",
    "just graduated from {UNI}!!",
    # contact details together
    "{FULL}, {ADDRESS}, tel {PHONE}",
    "deliver to {ADDRESS}, call {PHONE} when you're outside",
    "hey {FIRST}! new number {PHONE}, new flat {ADDRESS}",
    "the carer should go to {ADDRESS} and ring my son on {PHONE} if nobody answers",
    "lost dog found near my house, {ADDRESS}, please call {PHONE}",
    "my details for the gas engineer: {ADDRESS}, mobile {PHONE}",
    "taxi to {ADDRESS} please, my number's {PHONE}",
    "pick up the sofa from {ADDRESS}, text {PHONE} before you come",
    "send the contract to {EMAIL} or post it to {ADDRESS}",
    "{FULL} moved out of {ADDRESS}, new email {EMAIL}",
    "update my profile: address {ADDRESS}, email {EMAIL}",
    "the invoice should show my address {ADDRESS} and my email {EMAIL}",
    "my address for the gym membership is {ADDRESS} and my email is {EMAIL}",
    "my number is {PHONE} and my email is {EMAIL}",
    "register {FULL}, {EMAIL}, {PHONE} for the 10k run",
    "reach me on {PHONE} or at {EMAIL}, whichever is easier",
    "can you write a cover letter footer: {FULL} | {PHONE} | {EMAIL}",
    "my mate's details are {EMAIL} and {PHONE}, can you invite her to the group",
    "if you have questions about my flat call {PHONE} or email {EMAIL}",
    "contact sheet: {FULL}, {ADDRESS}, {PHONE}, {EMAIL}",
    "emergency contact for the trip: {FULL}, {PHONE}, {EMAIL}, lives at {ADDRESS}",
    "please update my details, i'm now at {ADDRESS}, phone {PHONE}, email {EMAIL}",
    # bank, cards and money together
    "my salary of {SALARY} is paid into {IBAN}",
    "my savings account {IBAN} has {SAVINGS} in it",
    "the repayments for my {LOAN} come out of {IBAN}",
    "my account {IBAN} is showing {BALANCE}, where are my wages",
    "i want to pay off the {ARREARS} from my account {IBAN}",
    "send the invoice to {EMAIL} and pay into {IBAN}",
    "pay {IBAN} and text me on {PHONE} when it's sent",
    "my bank details: {FULL}, {ADDRESS}, iban {IBAN}",
    "the refund form needs my iban {IBAN} and email {EMAIL}",
    "seller gave me {IBAN} and {PHONE}, looks legit?",
    "i've maxed out {CARD}, that's {DEBT} now",
    "my card {CARD} keeps getting declined even though there's {BALANCE}",
    "cleared {DEBT} on {CARD} finally!!",
    "card {CARD}, billing address {ADDRESS}",
    "my email {EMAIL}, card {CARD}, pls book the table for 4",
    "hotel booking: {FULL}, {PHONE}, card {CARD}",
    "the order went to {ADDRESS} but was charged to my card {CARD}, i never ordered it",
    "receipt for the charge on {CARD} should go to {EMAIL}",
    "{FIRST} from the bank rang me on {PHONE} asking for {CARD}, is that a scam?",
    "my card {CARD} and iban {IBAN} were both in the stolen wallet",
    "link {CARD} to my account {IBAN} pls",
    "can you pay with {CARD} or do you need a transfer to {IBAN}?",
    # health with work, money or contact details
    "my colleague {FIRST} at {ORG} is off with {COND}",
    "i'm on {MED} and work nights at {ORG}, is that ok?",
    "since starting at {ORG} i've had {SYMPTOM} every sunday night",
    "can my employer {ORG} find out about my {COND}?",
    "i'm off work from {ORG} after {TREAT}",
    "i study at {UNI} and take {MED} for anxiety",
    "should i tell HR at {ORG} that i'm having {TREAT}?",
    "my boss at {ORG} won't let me go to appointments for my {COND}",
    "i took out a {LOAN} to pay for {TREAT}",
    "my {COND} means i can't work and i've got {DEBT}",
    "we've burned through {SAVINGS} paying for {TREAT}",
    "living on {SALARY} with {COND} is really hard",
    "my nan {FULL} at {ADDRESS} needs a carer, she has {COND}",
    "please call {FIRST} on {PHONE}, she has {COND} and may need help",
    "the district nurse comes to {ADDRESS} every day for my dad's {TREAT}",
    "send my {MED} prescription to {ADDRESS}, i can't get out",
    "the clinic emailed {EMAIL} saying my tests show {COND}, what now",
    # money with work or home
    "i'm {FIRST}, i work at {ORG} and earn {SALARY}",
    "i earn {SALARY} at {ORG} but i've got {DEBT}",
    "my partner {FIRST} earns {SALARY} at {ORG}",
    "i'm a student at {UNI} with {DEBT}",
    "{ORG} is offering me {SALARY}, is that fair for the role?",
    "i got laid off from {ORG} and now only have {SAVINGS}",
    "my boss {FULL} at {ORG} earns way more than me and i'm on {SALARY}",
    "{ORG} pays me {SALARY} and i still can't cover rent",
    "my tenant at {ADDRESS} owes {ARREARS}, what are my options",
    "we've got {ARREARS} on our flat at {ADDRESS}",
    "our house at {ADDRESS} has a {LOAN} on it",
    "debt advisors can reach me at {EMAIL}, i have {DEBT}",
    "i'm on {PHONE} if the council wants to talk about my {ARREARS}",
    # work with contact details or bank
    "i'm {FULL}, i work for {ORG}, my mobile is {PHONE}",
    "my personal email is {EMAIL}, use that, not my {ORG} one",
    "{TITLED} from {ORG} rang me on {PHONE}",
    "{FIRST} from {ORG} wants my card number, it's {CARD}, should i send it?",
    "payslips from {ORG} go to {EMAIL}",
    "the wages from {ORG} land in {IBAN}",
    "i commute from {ADDRESS} to {ORG} every day, 2 hours each way",
    "my work expenses at {ORG} went on {CARD}",
    "reference request for {FULL}, who worked at {ORG}, send it to {EMAIL}",
    "i'm a student at {UNI}, term address {ADDRESS}",
    "{ORG} needs my iban for payroll: {IBAN}",
    "{UNI} refunded my fees to {CARD}",
    "salary from {ORG} should go into {IBAN} from next month",
    "pls pay my invoice to {IBAN}, questions to {EMAIL}",
    "my landlord {TITLED} wants the deposit sent to {IBAN}, his number is {PHONE}",
    "emergency fund: {SAVINGS} sitting in {IBAN}",
    "iban {IBAN}, name {FULL}, address {ADDRESS}",
    "my tax rebate should go to {IBAN}, reference sent to {EMAIL}",
    "my account {IBAN} is overdrawn and i've got {DEBT}",
    "pls put the deposit on {CARD} and send the receipt to {EMAIL}",
    "card {CARD}, name {FULL}, delivery to {ADDRESS}",
    "my card {CARD} is linked to the account {IBAN}, can i cancel just the card?",
    "i paid for {TREAT} with {CARD}, can i claim it back on insurance?",
    "order for {FULL}: card {CARD}, phone {PHONE}",
    "the charge on {CARD} was for {MED} from an online pharmacy",
    "i'm paying my {LOAN} off with {CARD}, bad idea?",
    "someone at {ADDRESS} ordered stuff on my card {CARD}",
    "my son {FIRST} used {CARD} on game skins and now there's only {BALANCE}",
    "send my sick note to {EMAIL}, i have {COND}",
    "occupational health at {ORG} asked about my {SYMPTOM}",
    "ambulance needed at {ADDRESS}, my husband has {SYMPTOM}",
    "my {TREAT} left me with {DEBT}",
    "text me on {PHONE} when my {MED} is ready",
    "pls email {EMAIL} my dad's list: {MED}, {MED} and {MED}",
    "i'm at {ORG} all day, call {PHONE}",
    "{ORG} has my old email {EMAIL}, how do i change it?",
    "my agency {ORG} has {PHONE} as my number",
    "send the form to {EMAIL}, i'm a student at {UNI}",
    "i can pay by card ({CARD}) or transfer from {IBAN}, which is safer?",
    "the bank froze {IBAN} over {DEBT}",
    "sick pay while i'm off with {COND} should go to {IBAN}",
    "housing benefit for {ADDRESS} is paid into {IBAN}",
    "my grandson {FIRST} wants my iban {IBAN} and card {CARD} for a surprise, is that ok?",
    "my card {CARD} was used at a pharmacy for {MED} i never bought",
    "the insurer will refund my {TREAT} to {IBAN}",
    "i'm on {MED} for {COND} and need a fit note emailed to {EMAIL}",
    "ring me on {PHONE} if {FIRST} has {SYMPTOM} again",
    "{EMAIL} got an email asking for my card {CARD}, phishing?",
    "tried to pay off {ARREARS} with {CARD} and it bounced",
    "my {ORG} email got hacked, personal one is {EMAIL}, number {PHONE}",
    "iban for my {UNI} bursary: {IBAN}",
    "{FULL}'s card {CARD} was charged for a delivery to {ADDRESS}",
    "my {SALARY} all goes on {CARD} by the 20th",
    "my card {CARD} expired, the new one will go to {ADDRESS}",
]

NONE_TEMPLATES = [
    "did you see {celeb} at the awards last night?",
    "heard {company} is closing {bignum} stores, is that true?",
    "the new {product} costs {price}, worth it?",
    "turn left onto {street} and the café is on the right",
    "who would win in a fight, {fiction} or {fiction}?",
    "{helpco} customer service is {helpline}, they never pick up",
    "{celeb}'s new album is so good",
    "write a short story about {fiction} visiting {city}",
    "{company} shares dropped {pct}% today",
    "what are common symptoms of {gencond}?",
    "is the {product} cheaper on black friday? it's {price} now",
    "the parade goes down {street} at noon",
    "the {city} marathon closes {street} all morning",
    "{celeb} said in an interview they love cornwall",
    "what's the average salary for a {job} in the uk?",
    "{fiction} is honestly the best character ever written",
    "for lost parcels, {helpco} says to ring {helpline}",
    "{company} is hiring {bignum} seasonal staff apparently",
    "is vitamin d worth taking in {month}?",
    "traffic on {street} is a nightmare today",
    "{celeb} is playing wembley next summer",
    "the {product} is down to {price} in the sale!!",
    "how long does it take to walk from {street} to the station?",
    "any films like the ones with {fiction}?",
    "{company} profits beat expectations this quarter",
    "which is better value, the {product} at {price} or waiting for the next model?",
    "{celeb} and {celeb} at the same event, iconic",
    "the bus goes along {street} then over the bridge",
    "help me plan a 3 day trip to {city}",
    "ngl {fiction} deserved better in the finale",
    "{helpco} support line {helpline} is open 8 till 8",
    "{company} is moving its head office to {city}",
    "house prices in {city} went up again this year",
    "{celeb} donated to a children's hospital, lovely",
    "our book club is reading about {fiction} this month",
    "does anyone know if the market on {street} is on sundays?",
    "the museum on {street} is free entry",
    "{celeb} was spotted in {city} lol",
    "average rent in {city} is ridiculous now",
    "is it true {celeb} is retiring?",
    "what's {celeb}'s net worth these days?",
    "is {gencond} contagious?",
    "how many people in the uk get {gencond} each year?",
    "what's the best way to avoid {gencond} this winter?",
    "are flu jabs available at most pharmacies in {month}?",
    "{company} reported record sales in {month}",
    "{celeb} looked amazing on the red carpet",
    "explain {fiction}'s backstory in 3 sentences",
    "cheapest {product} i can find is {price}, is that a good deal?",
    "roadworks on {street} again, avoid if you can",
    "{helpco} told me to call {helpline} between 9 and 5",
    "how much does {celeb} earn a year? must be loads",
    "is {city} expensive to visit in {month}?",
    "{company} is launching a new loyalty app",
    "write a limerick about {fiction}",
    "how does {gencond} spread in schools?",
    "is the {product} worth {price}? reviews say meh",
    "{street} is lovely at christmas with all the lights",
    "{celeb} just posted a throwback pic",
    "which {company} store in {city} is the biggest?",
    "what's the general advice on exercise for a {job} working shifts?",
    "how do interest rates work, in simple terms? asking for a {job} friend",
    "summarise the plot of the first {fiction} story",
    "lol {celeb} trending again",
    "{helpco} billing queries go to {helpline}, have your account ref ready",
    "the {product} at {price} or the older one for less?",
    "is walking 10k steps a day actually necessary in {month}?",
    "is {street} pedestrianised now?",
    "{company} announced a new ceo this morning",
    "does {celeb} have anything new out this year?",
    "can you recommend a podcast about {city} history?",
    "how long does {gencond} usually last?",
    "is a {job} allowed to strike in the uk?",
    "what should i see on {street} if i only have an hour?",
    "{company} opened a new branch in {city} last week",
]


# ---------------------------------------------------------------------------
# Rendering and assembly.
# ---------------------------------------------------------------------------
SLOT_PATTERN = re.compile(r"\{([A-Za-z_]+)\}")
SLOT_METHODS = {
    "FIRST": "first_name",
    "FULL": "full_name",
    "TITLED": "titled_name",
    "ADDRESS": "address",
    "EMAIL": "email",
    "PHONE": "phone",
    "IBAN": "iban",
    "CARD": "card",
    "product": "product",
    "price": "price",
    "helpline": "helpline",
    "pct": "pct",
}
MONEY_SLOTS = {"DEBT", "SALARY", "SAVINGS", "BALANCE", "ARREARS", "LOAN"}
SENTENCE_END = (".", "!", "?")
MAX_RETRIES = 40


def fill_slot(maker, slot):
    if slot in SLOT_METHODS:
        return getattr(maker, SLOT_METHODS[slot])()
    if slot in MONEY_SLOTS:
        return maker.money(slot)
    return maker.drawn(slot)


def render(maker, template):
    """Fill one template; return its text and the spans of the personal data in it."""
    pieces = []
    spans = []
    length = 0
    cursor = 0
    for match in SLOT_PATTERN.finditer(template):
        literal = template[cursor : match.start()]
        pieces.append(literal)
        length += len(literal)
        slot = match.group(1)
        value = fill_slot(maker, slot)
        if slot in SLOT_TYPES:
            spans.append([length, length + len(value), SLOT_TYPES[slot]])
        pieces.append(value)
        length += len(value)
        cursor = match.end()
    pieces.append(template[cursor:])
    return "".join(pieces), spans


def join_sentences(parts):
    """Join rendered sentences into one message, shifting their spans."""
    text = ""
    spans = []
    for sentence, sentence_spans in parts:
        if text:
            if text.endswith(SENTENCE_END):
                text += " "
            else:
                text += ". "
        offset = len(text)
        for start, end, label in sentence_spans:
            spans.append([start + offset, end + offset, label])
        text += sentence
    return text, spans


class Assembler:
    """Builds the messages: every template used, no repeated text."""

    def __init__(self, rng, maker):
        self.rng = rng
        self.maker = maker
        self.pii = [("t%03d" % (i + 1), t) for i, t in enumerate(PII_TEMPLATES)]
        offset = len(PII_TEMPLATES)
        self.none = [("t%03d" % (offset + i + 1), t) for i, t in enumerate(NONE_TEMPLATES)]
        self.pii_deck = Deck(rng, self.pii)
        self.none_deck = Deck(rng, self.none)
        self.seen = set()

    def message(self, entries):
        """Render a message from (id, template) entries; re-fill until the text is new."""
        for _ in range(MAX_RETRIES):
            parts = [render(self.maker, template) for _tid, template in entries]
            text, spans = join_sentences(parts)
            if text not in self.seen:
                self.seen.add(text)
                ids = "+".join(tid for tid, _template in entries)
                return {"text": text, "spans": spans, "template": ids}
        raise RuntimeError("could not make a new text from " + entries[0][0])

    def sentence_count(self):
        if self.rng.random() < SHARE_OF_THREE:
            return 3
        return 2

    def joined_entries(self, first_deck, with_pii):
        entries = [first_deck.draw()]
        wanted = self.sentence_count()
        while len(entries) < wanted:
            if with_pii and self.rng.random() >= SHARE_OF_DISTRACTOR_SENTENCE:
                entry = self.pii_deck.draw()
            else:
                entry = self.none_deck.draw()
            if entry not in entries:
                entries.append(entry)
        return entries

    def build(self):
        rng = self.rng
        messages = []
        singles = N_WITH_PII - N_JOINED_PII
        order = list(self.pii)
        rng.shuffle(order)
        while len(order) < singles:
            order.append(rng.choice(self.pii))
        for entry in order[:singles]:
            messages.append(self.message([entry]))
        for _ in range(N_JOINED_PII):
            messages.append(self.message(self.joined_entries(self.pii_deck, True)))
        none_singles = N_WITHOUT_PII - N_JOINED_NONE
        order = list(self.none)
        rng.shuffle(order)
        while len(order) < none_singles:
            order.append(rng.choice(self.none))
        for entry in order[:none_singles]:
            messages.append(self.message([entry]))
        for _ in range(N_JOINED_NONE):
            messages.append(self.message(self.joined_entries(self.none_deck, False)))
        rng.shuffle(messages)
        return messages


def check(messages):
    """Fail loudly if a span is misplaced or a number has a wrong checksum."""
    for record in messages:
        text = record["text"]
        previous_end = 0
        for start, end, label in record["spans"]:
            if start < previous_end or end <= start or end > len(text):
                raise ValueError("bad span in: " + text)
            value = text[start:end]
            if value != value.strip():
                raise ValueError("span with spaces in: " + text)
            if label == "IBAN" and not iban_valid(value):
                raise ValueError("bad IBAN " + value)
            if label == "CREDIT_CARD" and not luhn_valid(value.replace(" ", "")):
                raise ValueError("bad card " + value)
            previous_end = end


def summary(messages):
    counts = {}
    for record in messages:
        for _start, _end, label in record["spans"]:
            counts[label] = counts.get(label, 0) + 1
    with_pii = sum(1 for record in messages if record["spans"])
    joined = sum(1 for record in messages if "+" in record["template"])
    parts = ["%s %d" % (label, counts[label]) for label in sorted(counts)]
    return "%d messages (%d with personal data, %d joined); spans: %s" % (
        len(messages),
        with_pii,
        joined,
        ", ".join(parts),
    )


def main():
    rng = random.Random(SEED)
    maker = ValueMaker(rng)
    messages = Assembler(rng, maker).build()
    check(messages)
    here = os.path.dirname(os.path.abspath(__file__))
    path = os.path.join(here, OUT_NAME)
    with open(path, "w", encoding="utf-8") as handle:
        for record in messages:
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")
    print(summary(messages))


if __name__ == "__main__":
    main()
