#!/usr/bin/env python3
"""Self-contained generator of chat/post messages with (and without) personal data.

Run: python generate.py  ->  writes pii_generator_ga.jsonl next to this file (seed 74).
Standard library only; all templates and value lists are written by hand below.
"""

import json
import math
import os
import random
import re
import unicodedata

SEED = 74
N_POS = 480
N_NEG = 120
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pii_generator_ga.jsonl")


def uniq(seq):
    return list(dict.fromkeys(seq))


# ---------------------------------------------------------------------------
# 1. VALUE LISTS
# ---------------------------------------------------------------------------

# Names by culture: (first names, surnames). Full names are mostly drawn within a culture.
CULTURES = {
    "english": (
        [
            "Oliver",
            "Amelia",
            "Alfie",
            "Isla",
            "George",
            "Poppy",
            "Jack",
            "Freya",
            "Eleanor",
            "Callum",
            "Bethany",
            "Rhys",
            "Megan",
            "Declan",
        ],
        [
            "Thompson",
            "Whitaker",
            "Ashworth",
            "Pemberton",
            "Fletcher",
            "Davies",
            "Marsh",
            "Haworth",
            "Blackwood",
            "Rowntree",
        ],
    ),
    "american": (
        ["Tyler", "Kaylee", "Brandon", "Kayla", "Hunter", "Destiny", "Jaxon", "Brianna"],
        ["Kowalski", "Ramirez", "Jefferson", "McAllister", "Hendricks", "Delgado"],
    ),
    "irish": (
        ["Siobhán", "Niamh", "Seán", "Aoife", "Oisín", "Caoimhe", "Ciarán", "Róisín", "Pádraig"],
        ["Ó Súilleabháin", "O'Connell", "Ó Ceallaigh", "Mulcahy", "Byrne", "Mac Giolla Phádraig"],
    ),
    "german": (
        ["Jürgen", "Käthe", "Lukas", "Anja", "Jörg", "Mareike", "Uwe", "Sönke", "Günther", "Lena"],
        ["Müller", "Schröder", "Weiß", "Köhler", "Großmann", "Hoffmann", "Krüger", "Schäfer", "Böttcher"],
    ),
    "french": (
        ["Hélène", "Benoît", "Élodie", "François", "Chloé", "Jérôme", "Anaïs", "Théo", "Céline", "Gaëlle"],
        ["Lefèvre", "Dubois", "Géraud", "Fournier", "Bélanger", "Moreau", "Rousseau", "Clément"],
    ),
    "spanish": (
        ["José", "María", "Álvaro", "Lucía", "Íñigo", "Begoña", "Nuria", "Andrés", "Inés", "Rocío"],
        ["García", "Fernández", "Muñoz", "Ibáñez", "Peña", "Jiménez", "Domínguez", "Sáez"],
    ),
    "italian": (
        ["Giulia", "Niccolò", "Chiara", "Matteo", "Federica", "Lorenzo", "Ilaria", "Gianluca"],
        ["Rossi", "Bianchi", "Esposito", "Ricci", "Colombo", "De Luca", "Mancini", "Fabbrò"],
    ),
    "portuguese": (
        ["João", "Conceição", "Thiago", "Luíza", "Gonçalo", "Letícia", "Vinícius", "Bárbara", "Caio"],
        ["Gonçalves", "Simões", "Araújo", "Magalhães", "Loureiro", "Assunção"],
    ),
    "argentine": (
        ["Agustín", "Valentina", "Martín", "Florencia", "Joaquín", "Ramiro"],
        ["Sosa", "Benítez", "Acuña", "Ledesma", "Giménez"],
    ),
    "polish": (
        ["Łukasz", "Małgorzata", "Paweł", "Agnieszka", "Wojciech", "Zofia", "Krzysztof", "Bożena", "Michał", "Jędrzej"],
        ["Wiśniewski", "Kowalczyk", "Wójcik", "Zieliński", "Lewandowska", "Dąbrowski", "Szymańska"],
    ),
    "czech": (
        ["Jiří", "Tereza", "Radka", "Přemysl", "Kateřina", "Ondřej", "Vojtěch", "Zdeněk"],
        ["Novák", "Dvořák", "Černý", "Procházková", "Kučera", "Horáková", "Veselý"],
    ),
    "swedish": (
        ["Björn", "Åsa", "Linnéa", "Måns", "Gustav", "Elin", "Göran"],
        ["Lindqvist", "Åkesson", "Sjöberg", "Bergström", "Nyström", "Söderberg"],
    ),
    "norwegian": (
        ["Øystein", "Solveig", "Sigrid", "Håkon", "Ingrid", "Torbjørn", "Ståle"],
        ["Haugen", "Løvås", "Bjørnstad", "Kristiansen", "Solberg", "Dæhlie"],
    ),
    "finnish": (
        ["Päivi", "Jyrki", "Aino", "Eero", "Sanna", "Mikko", "Kyllikki", "Tuomas", "Väinö"],
        ["Mäkinen", "Virtanen", "Häkkinen", "Korhonen", "Järvinen", "Lähteenmäki"],
    ),
    "turkish": (
        ["Şule", "Özgür", "Çağrı", "Emre", "Gökhan", "Ayşe", "İlker", "Merve"],
        ["Yılmaz", "Öztürk", "Çelik", "Şahin", "Aydın", "Doğan"],
    ),
    "indian": (
        ["Priya", "Arjun", "Ananya", "Rohan", "Kavya", "Vikram", "Deepika", "Sanjay", "Meera", "Aditya", "Lakshmi"],
        ["Sharma", "Iyer", "Venkataraman", "Chatterjee", "Patel", "Reddy", "Nair", "Banerjee"],
    ),
    "chinese": (
        ["Xiaoling", "Zhiwei", "Yiting", "Haoran", "Meilin", "Jiahui"],
        ["Zhang", "Wang", "Liu", "Chen", "Huang"],
    ),
    "japanese": (
        ["Haruto", "Yūki", "Sakura", "Kenji", "Aoi", "Takeshi", "Shōta", "Emiko"],
        ["Takahashi", "Satō", "Itō", "Yamamoto", "Kobayashi", "Ōno"],
    ),
    "korean": (
        ["Ji-woo", "Min-jun", "Seo-yeon", "Hyun-woo", "Soo-ah"],
        ["Kim", "Park", "Choi", "Jeong"],
    ),
    "arabic": (
        ["Mohammed", "Fatima", "Yousef", "Layla", "Omar", "Noor", "Khalid", "Amira", "Tariq"],
        ["Al-Farsi", "Haddad", "Mansour", "El-Amin", "Khoury", "Nasser"],
    ),
    "nigerian": (
        ["Chinedu", "Ngozi", "Oluwaseun", "Adaeze", "Emeka", "Folake", "Tunde", "Chiamaka"],
        ["Okonkwo", "Adeyemi", "Eze", "Okafor", "Balogun", "Nwosu"],
    ),
    "vietnamese": (
        ["Thảo", "Minh", "Linh", "Tuấn", "Huyền"],
        ["Nguyễn", "Trần", "Phạm", "Lê Văn"],
    ),
    "greek": (
        ["Dimitris", "Eleni", "Giorgos", "Katerina", "Nikos"],
        ["Papadopoulos", "Georgiou", "Konstantinidis"],
    ),
    "hungarian": (
        ["Zsófia", "Gábor", "Ákos", "Réka", "Bence"],
        ["Szabó", "Kovács", "Tóth", "Horváth"],
    ),
}
CULTURE_KEYS = list(CULTURES)
FIRST_NAMES = uniq(f for k in CULTURE_KEYS for f in CULTURES[k][0])
SURNAMES = uniq(s for k in CULTURE_KEYS for s in CULTURES[k][1])
TITLES = ["Mr", "Mrs", "Ms", "Dr", "Dr.", "Mr.", "Mrs.", "Miss", "Prof.", "Mx"]
TITLES_LOCAL = {
    "german": ["Herr", "Frau"],
    "french": ["M.", "Mme"],
    "spanish": ["Sr.", "Sra."],
    "italian": ["Sig.", "Sig.ra"],
    "portuguese": ["Sr.", "Dona"],
    "polish": ["Pan", "Pani"],
}

# Streets by country (used only with a house number inside ADDRESS values).
STREETS = {
    "UK": [
        "Marlowe Road",
        "Kingsley Avenue",
        "Ashgrove Terrace",
        "Pennine Close",
        "Holloway Lane",
        "Beechcroft Gardens",
        "Tannery Street",
        "Wrenfield Drive",
    ],
    "US": [
        "Willow Creek Dr",
        "Maple Street",
        "Oak Hollow Ln",
        "Sycamore Ave",
        "Birchwood Ct",
        "Juniper Blvd",
        "Cedar Ridge Rd",
    ],
    "DE": ["Lindenstraße", "Am Mühlbach", "Kastanienallee", "Gartenweg", "Schillerstraße", "Ahornring", "Fichtestraße"],
    "FR": [
        "rue des Lilas",
        "avenue Jean-Jaurès",
        "rue du Moulin Vert",
        "boulevard des Tilleuls",
        "impasse des Églantiers",
        "rue Saint-Exupère",
    ],
    "ES": ["Calle del Olivo", "Carrer de la Font", "Avenida de los Almendros", "Calle Peñascal", "Calle de la Acequia"],
    "IT": ["Via dei Glicini", "Via Mazzolari", "Corso Santa Rita", "Viale delle Robinie", "Via Casalbuono"],
    "PL": ["ul. Kwiatowa", "ul. Słoneczna", "ul. Jaśminowa", "ul. Wrzosowa", "ul. Żurawia"],
    "CZ": ["Lipová", "Na Výsluní", "Jabloňová", "Třešňová", "Pod Hájem"],
    "SE": ["Björkvägen", "Lärkgatan", "Solrosvägen", "Ekbacken", "Hästskovägen"],
    "NO": ["Granveien", "Bjørkelia", "Skogvegen", "Fjellstien", "Løkkeveien"],
    "FI": ["Koivukuja", "Pihlajatie", "Kuusitie", "Mäntyrinne", "Vaahterakuja"],
    "BR": ["Rua das Acácias", "Rua Jequitibá", "Avenida dos Ipês", "Rua Sabiá", "Travessa das Orquídeas"],
    "AR": ["Calle Los Aromos", "Pasaje Las Tipas", "Calle Jacarandá", "Avenida Los Ceibos"],
    "IN": ["Gulmohar Lane", "Ashoka Cross Road", "Neem Tree Road", "Kamala Nagar Main Road", "Banyan Street"],
    "JP": ["Sakuragaoka", "Momoyama-chō", "Kitazawa", "Higashi-Kōen-dōri"],
    "AU": ["Banksia Crescent", "Wattle Grove", "Jacaranda Parade", "Kookaburra Way", "Ironbark Street"],
    "NL": ["Lindengracht", "Berkenlaan", "Tulpstraat", "Wilgenhof"],
    "IE": ["Hawthorn Grove", "Rowan Park", "Millbrook Road"],
    "CA": ["Tamarack Drive", "Spruce Hill Road", "Lakeshore Crescent"],
}
ALL_STREETS = uniq(s for c in STREETS for s in STREETS[c])

TOWNS = {
    "UK": [
        ("Leeds", "LS"),
        ("Bristol", "BS"),
        ("Sheffield", "S"),
        ("Norwich", "NR"),
        ("Cardiff", "CF"),
        ("Leicester", "LE"),
    ],
    "US": [
        ("Austin", "TX", "787"),
        ("Portland", "OR", "972"),
        ("Columbus", "OH", "432"),
        ("Madison", "WI", "537"),
        ("Raleigh", "NC", "276"),
    ],
    "DE": [
        ("10115", "Berlin"),
        ("80331", "München"),
        ("50667", "Köln"),
        ("04109", "Leipzig"),
        ("28195", "Bremen"),
        ("90402", "Nürnberg"),
    ],
    "FR": [
        ("69003", "Lyon"),
        ("31000", "Toulouse"),
        ("44000", "Nantes"),
        ("67000", "Strasbourg"),
        ("13006", "Marseille"),
    ],
    "ES": [
        ("28009", "Madrid"),
        ("08014", "Barcelona"),
        ("41003", "Sevilla"),
        ("46002", "València"),
        ("48001", "Bilbao"),
    ],
    "IT": [("20121", "Milano"), ("10121", "Torino"), ("40126", "Bologna"), ("50122", "Firenze"), ("80133", "Napoli")],
    "PL": [
        ("00-950", "Warszawa"),
        ("30-001", "Kraków"),
        ("50-001", "Wrocław"),
        ("80-001", "Gdańsk"),
        ("90-001", "Łódź"),
    ],
    "CZ": [("120 00", "Praha 2"), ("602 00", "Brno"), ("301 00", "Plzeň"), ("370 01", "České Budějovice")],
    "SE": [("114 51", "Stockholm"), ("413 01", "Göteborg"), ("211 20", "Malmö"), ("752 36", "Uppsala")],
    "NO": [("0368", "Oslo"), ("5003", "Bergen"), ("7010", "Trondheim"), ("9008", "Tromsø")],
    "FI": [("00100", "Helsinki"), ("33100", "Tampere"), ("20100", "Turku"), ("90100", "Oulu")],
    "BR": [("São Paulo", "SP"), ("Belo Horizonte", "MG"), ("Curitiba", "PR"), ("Recife", "PE"), ("Porto Alegre", "RS")],
    "AR": [("C1414", "CABA"), ("S2000", "Rosario"), ("X5000", "Córdoba"), ("M5500", "Mendoza")],
    "IN": [
        ("Bengaluru", "560038"),
        ("Pune", "411014"),
        ("Chennai", "600040"),
        ("Hyderabad", "500034"),
        ("Kochi", "682020"),
    ],
    "JP": [
        ("Setagaya-ku", "Tokyo", "154"),
        ("Kita-ku", "Kyoto", "603"),
        ("Chūō-ku", "Sapporo", "064"),
        ("Naka-ku", "Yokohama", "231"),
    ],
    "AU": [
        ("Fitzroy", "VIC", "3065"),
        ("Paddington", "NSW", "2021"),
        ("Fremantle", "WA", "6160"),
        ("New Farm", "QLD", "4005"),
    ],
    "NL": [("1015", "Amsterdam"), ("3511", "Utrecht"), ("9711", "Groningen")],
    "IE": [("Dublin 9", "D09"), ("Cork", "T12"), ("Galway", "H91")],
    "CA": [("Guelph", "ON", "N1H"), ("Halifax", "NS", "B3H"), ("Kelowna", "BC", "V1Y")],
}

EMAIL_DOMAINS = [
    "gmail.com",
    "outlook.com",
    "yahoo.co.uk",
    "hotmail.com",
    "web.de",
    "gmx.de",
    "orange.fr",
    "libero.it",
    "wp.pl",
    "seznam.cz",
    "telia.se",
    "online.no",
    "proton.me",
    "icloud.com",
    "uol.com.br",
    "rediffmail.com",
    "yahoo.es",
    "bigpond.com",
    "live.fi",
    "gmx.at",
]

# HEALTH values: conditions, symptoms, medication, treatment.
HEALTH_COND = [
    "type 2 diabetes",
    "type 1 diabetes",
    "bipolar disorder",
    "generalised anxiety disorder",
    "ADHD",
    "Crohn's disease",
    "endometriosis",
    "multiple sclerosis",
    "epilepsy",
    "coeliac disease",
    "rheumatoid arthritis",
    "early-onset Parkinson's",
    "long COVID",
    "PTSD",
    "OCD",
    "anorexia",
    "bulimia",
    "postnatal depression",
    "clinical depression",
    "hypothyroidism",
    "PCOS",
    "fibromyalgia",
    "chronic fatigue syndrome",
    "lupus",
    "asthma",
    "COPD",
    "stage 2 breast cancer",
    "prostate cancer",
    "non-Hodgkin lymphoma",
    "HIV",
    "hepatitis C",
    "a herniated disc",
    "high blood pressure",
    "atrial fibrillation",
    "irritable bowel syndrome",
    "psoriasis",
    "sleep apnoea",
    "borderline personality disorder",
    "an eating disorder",
    "schizophrenia",
    "glaucoma",
    "tinnitus",
    "gestational diabetes",
    "kidney stones",
    "a torn ACL",
    "gout",
    "Hashimoto's",
    "ulcerative colitis",
    "autism",
    "dyslexia",
    "chlamydia",
    "shingles",
]
HEALTH_SYMPT = [
    "panic attacks",
    "chest pains",
    "blackouts",
    "constant migraines",
    "night sweats",
    "a lump in my breast",
    "blood in my stool",
    "heart palpitations",
    "insomnia",
    "suicidal thoughts",
    "memory lapses",
    "a persistent cough",
    "numbness in my left arm",
    "hair falling out in clumps",
    "dizzy spells",
    "severe back pain",
    "nosebleeds every morning",
    "ringing in both ears",
    "vomiting after meals",
    "shortness of breath",
    "tremors in my hands",
    "unexplained weight loss",
]
HEALTH_MED = [
    "sertraline 50mg",
    "fluoxetine",
    "lithium",
    "metformin",
    "insulin",
    "levothyroxine",
    "methotrexate",
    "propranolol",
    "citalopram",
    "quetiapine",
    "Ritalin",
    "pregabalin",
    "amitriptyline",
    "PrEP",
    "warfarin",
    "morphine patches",
    "adalimumab injections",
    "mirtazapine",
    "the mini pill",
    "Ozempic",
    "tramadol",
    "venlafaxine 150mg",
    "an inhaler twice a day",
    "ramipril",
]
HEALTH_TREAT = [
    "chemotherapy",
    "radiotherapy",
    "IVF",
    "dialysis",
    "a hip replacement",
    "CBT",
    "physiotherapy",
    "a knee reconstruction",
    "rehab for alcohol",
    "a hysterectomy",
    "gastric bypass surgery",
    "an appendectomy",
    "electroconvulsive therapy",
    "a mastectomy",
    "open-heart surgery",
    "a colonoscopy",
    "counselling for grief",
    "hormone therapy",
    "a skin graft",
    "egg freezing",
    "methadone treatment",
    "a spinal fusion",
    "cataract surgery",
    "a stem cell transplant",
]

# FINANCE values are built from currency amounts and phrases that make them a person's money.
CURRENCIES = [
    # (prefix, suffix, thousands separator, decimal separator)
    ("£", "", ",", "."),
    ("$", "", ",", "."),
    ("€", "", ",", "."),
    ("", " €", ".", ","),
    ("", " EUR", ".", ","),
    ("", " zł", " ", ","),
    ("", " Kč", " ", ","),
    ("", " kr", " ", ","),
    ("R$ ", "", ".", ","),
    ("₹", "", ",", "."),
    ("A$", "", ",", "."),
    ("CHF ", "", "'", "."),
    ("", " NOK", " ", ","),
    ("¥", "", ",", "."),
]
FIN_DEBT = [
    "{a} of credit card debt",
    "{a} in credit card debt",
    "{a} in rent arrears",
    "{a} of rent arrears",
    "an overdraft of {a}",
    "{a} overdraft",
    "{a} in student loans",
    "a {a} car loan",
    "a {a} personal loan",
    "{a} of payday loans",
    "{a} in council tax arrears",
    "a mortgage of {a}",
    "{a} owed to the tax office",
    "{a} of debt on my Klarna",
    "a {a} debt to my landlord",
    "{a} of gambling debt",
    "{a} in unpaid energy bills",
    "a loan of {a}",
    "{a} of buy-now-pay-later debt",
]
FIN_INCOME = [
    "a salary of {a}",
    "a {a} salary",
    "{a} a year before tax",
    "{a} a month after tax",
    "{a} take-home pay",
    "{a} an hour",
    "a {a} annual bonus",
    "{a} a month in benefits",
    "a pension of {a} a month",
    "{a} a year gross",
    "{a} a month from a part-time job",
]
FIN_SAVINGS = [
    "{a} in savings",
    "{a} saved up",
    "{a} in my ISA",
    "{a} in my pension pot",
    "a balance of {a}",
    "{a} left in my current account",
    "{a} in my savings account",
    "{a} in a term deposit",
    "an inheritance of {a}",
    "{a} in crypto",
    "{a} in my emergency fund",
    "a balance of -{a}",
]

# Invented organisations (employers / schools / universities).
EMPLOYERS = [
    "Brackenridge Logistics",
    "Halvorsen Maritime AS",
    "Kestrel Ridge Primary School",
    "Wolkenstein Software GmbH",
    "Pinecrest Dental Group",
    "St Aldric's Hospital",
    "Eastmere University",
    "Lowfield Academy",
    "Quillon Analytics",
    "Norrbacka Verktyg AB",
    "Ferrovie Castellani S.p.A.",
    "Marwick & Doyle Solicitors",
    "Tidewater Credit Union",
    "Oakhurst Care Home",
    "Velmont Insurance",
    "Harbourline Ferries",
    "Greystone Builders Ltd",
    "Blue Heron Bakery",
    "Saltmarsh Veterinary Clinic",
    "Dunmore Community College",
    "Lysander Pharma",
    "Corvid Games Studio",
    "Ashbury Grammar School",
    "Kauppila Metsä Oy",
    "Meridian Freight Services",
    "Cobalt Lane Marketing",
    "Thornbury Library Trust",
    "Rivergate Leisure Centre",
    "Kowalczyk & Syn Sp. z o.o.",
    "Pražská Strojírna Vltava",
    "Solberg Fisk AS",
    "Instituto Nueva Aurora",
    "Colégio Horizonte Azul",
    "Brightwater Call Centre",
    "Fennick Engineering",
    "Northvale NHS Foundation Trust",
    "Université de Valmorin",
    "Hochschule Emsland-Süd",
    "Sunfield Nursery",
    "Maplestone Accountants",
    "Gullhaug Hotell",
    "Carrow & Finch Architects",
    "Lindqvist Bygg AB",
    "Panadería Los Tilos",
    "Osteria del Ponte Vecchio",
    "Kingfisher Garden Centre",
    "Ironwood Security",
    "Redbrook Primary",
    "Westcliff Sixth Form College",
    "Talvikki Health Oy",
    "Sapphire Coast Realty",
    "Manchester Road Surgery",
    "Verdigris Design Studio",
    "Bellhaven Distillery",
    "Hawksmoor Haulage",
    "Ravensworth College",
    "Quayside Fish Co.",
    "Arcadia Lane Pharmacy",
    "Highmoor Tyres",
    "Greenacre Housing Association",
    "Tannenhof Klinik",
    "Escola Municipal Jardim Serrano",
    "Indus Valley Softworks Pvt Ltd",
    "Sakuragi Precision K.K.",
    "Wattlebrook Council",
    "Fjordline Kundeservice AS",
    "Calder Valley Buses",
    "Orchard Row Dental",
    "Kaldera Institute of Technology",
    "University of Port Aldwyn",
    "Università di Valdoria",
    "Högskolan i Norrvik",
    "Szkoła Podstawowa nr 7 w Zielonym Gaju",
    "Hollins Brook Infant School",
]
SCHOOLS = [
    "Kestrel Ridge Primary School",
    "Lowfield Academy",
    "Ashbury Grammar School",
    "Sunfield Nursery",
    "Redbrook Primary",
    "Westcliff Sixth Form College",
    "Escola Municipal Jardim Serrano",
    "Colégio Horizonte Azul",
    "Instituto Nueva Aurora",
    "Szkoła Podstawowa nr 7 w Zielonym Gaju",
    "Hollins Brook Infant School",
]
UNIVERSITIES = [
    "Eastmere University",
    "Université de Valmorin",
    "Hochschule Emsland-Süd",
    "Ravensworth College",
    "Dunmore Community College",
    "Kaldera Institute of Technology",
    "University of Port Aldwyn",
    "Università di Valdoria",
    "Högskolan i Norrvik",
]
WORKPLACES = [e for e in EMPLOYERS if e not in SCHOOLS and e not in UNIVERSITIES]

# --- distractors (never spans) ---
CELEBS = [
    "Taylor Swift",
    "Lionel Messi",
    "Angela Merkel",
    "Barack Obama",
    "Beyoncé",
    "Elon Musk",
    "Rishi Sunak",
    "Emmanuel Macron",
    "Shakira",
    "Cristiano Ronaldo",
    "Adele",
    "Keir Starmer",
    "Greta Thunberg",
    "Roger Federer",
    "Oprah Winfrey",
    "Lewis Hamilton",
    "Rafael Nadal",
    "Zlatan Ibrahimović",
    "Björk",
    "King Charles",
    "Pope Francis",
    "Bad Bunny",
    "Serena Williams",
    "Kylian Mbappé",
    "Narendra Modi",
    "Jacinda Ardern",
    "Olaf Scholz",
    "Dua Lipa",
]
MUSICIANS = [
    "Taylor Swift",
    "Beyoncé",
    "Shakira",
    "Adele",
    "Bad Bunny",
    "Dua Lipa",
    "Björk",
    "Ed Sheeran",
    "Rosalía",
    "Stromae",
    "Billie Eilish",
    "Kendrick Lamar",
]
FICTIONAL = [
    "Sherlock Holmes",
    "Hermione Granger",
    "Homer Simpson",
    "Frodo Baggins",
    "Walter White",
    "Daenerys Targaryen",
    "Elizabeth Bennet",
    "Harry Potter",
    "Darth Vader",
    "Pippi Longstocking",
    "Don Quixote",
    "Jay Gatsby",
    "Tony Soprano",
    "Lisbeth Salander",
    "Captain Haddock",
    "Bridget Jones",
    "Mr Darcy",
    "Gandalf",
    "Moomintroll",
    "Asterix",
]
COMPANIES = [
    "Apple",
    "Siemens",
    "Tesla",
    "Nokia",
    "Spotify",
    "IKEA",
    "Unilever",
    "Volkswagen",
    "Amazon",
    "Nestlé",
    "Ryanair",
    "Tesco",
    "Zara",
    "Samsung",
    "Netflix",
    "Lidl",
    "Shell",
    "Ericsson",
    "Sony",
    "Airbus",
    "BP",
    "Heineken",
    "Vodafone",
    "Deutsche Bahn",
]
PRODUCTS = [
    ("the new iPhone", "$999"),
    ("a PS5", "£479"),
    ("the Galaxy S24", "€899"),
    ("a Dyson hoover", "£399"),
    ("the Switch 2", "$449"),
    ("a kilo of coffee", "€18.90"),
    ("AirPods Pro", "£229"),
    ("a MacBook Air", "$1,099"),
    ("the Kindle", "£94.99"),
    ("an e-bike", "€2.499"),
    ("a flat white", "£3.60"),
    ("a Netflix sub", "$15.49 a month"),
    ("the Model 3", "$38,990"),
    ("a Billy bookcase", "£55"),
    ("a litre of petrol", "£1.45"),
]
FAMOUS_STREETS = [
    "Oxford Street",
    "the Champs-Élysées",
    "Broadway",
    "Via del Corso",
    "Karl Johans gate",
    "La Rambla",
    "Nevsky Prospect",
    "Princes Street",
    "Kurfürstendamm",
    "Drottninggatan",
    "Avenida Paulista",
    "Nowy Świat",
    "Wenceslas Square",
    "the Royal Mile",
    "Grafton Street",
    "Las Ramblas",
    "Mannerheimintie",
    "Gran Vía",
    "Unter den Linden",
    "Fifth Avenue",
]
CS_LINES = [
    ("Vodafone", "0800 068 0408"),
    ("Deutsche Bahn", "030 2970"),
    ("Ryanair", "0871 246 0000"),
    ("IKEA", "020 3645 0000"),
    ("Amazon", "0800 279 7234"),
    ("Tesco", "0800 505 555"),
    ("Lidl", "0800 977 7766"),
    ("Spotify", "1-800-555-0199"),
    ("Samsung", "0333 000 0333"),
]
HEALTH_TALK = [
    "flu season",
    "vitamin D in winter",
    "the measles outbreak",
    "sugar in fizzy drinks",
    "screen time and sleep",
    "the new booster programme",
    "walking 10k steps",
    "hay fever season",
    "intermittent fasting",
    "ultra-processed food",
    "cold water swimming",
    "the heatwave advice",
]


# ---------------------------------------------------------------------------
# 2. VALUE MAKERS (each takes the seeded Random)
# ---------------------------------------------------------------------------


def pick_culture(r):
    return r.choice(CULTURE_KEYS)


def name_first(r):
    return r.choice(CULTURES[pick_culture(r)][0])


def name_full(r):
    c = pick_culture(r)
    first = r.choice(CULTURES[c][0])
    sur = r.choice(CULTURES[c][1] if r.random() < 0.85 else SURNAMES)
    return first + " " + sur


def name_titled(r):
    c = pick_culture(r)
    titles = TITLES + TITLES_LOCAL.get(c, []) * 2
    t = r.choice(titles)
    sur = r.choice(CULTURES[c][1])
    if r.random() < 0.5:
        return t + " " + sur
    return t + " " + r.choice(CULTURES[c][0]) + " " + sur


def name_any(r):
    x = r.random()
    if x < 0.4:
        return name_first(r)
    if x < 0.8:
        return name_full(r)
    return name_titled(r)


def digits(r, n):
    return "".join(r.choice("0123456789") for _ in range(n))


def upper_letters(r, n):
    return "".join(r.choice("ABCDEFGHJKLMNPRSTUVWXYZ") for _ in range(n))


def house_no(r, hi=140):
    return str(r.randint(1, hi))


STREET_COUNTRY = {s: c for c in STREETS for s in STREETS[c]}


def address(r, country=None, street=None):
    c = STREET_COUNTRY[street] if street else (country or r.choice(list(STREETS)))
    st = street or r.choice(STREETS[c])
    tw = r.choice(TOWNS[c])
    short = r.random() < 0.2  # street and number only
    if c == "UK":
        town, area = tw
        pc = "%s%d %d%s" % (area, r.randint(1, 19), r.randint(1, 9), upper_letters(r, 2))
        base = house_no(r) + " " + st
        if r.random() < 0.25:
            base = "Flat %d, %s" % (r.randint(1, 12), base)
        return base if short else "%s, %s %s" % (base, town, pc)
    if c == "US":
        town, state, z = tw
        base = "%s %s" % (r.randint(12, 9850), st)
        if r.random() < 0.3:
            base += " Apt %d%s" % (r.randint(1, 9), r.choice("ABCD"))
        return base if short else "%s, %s, %s %s%s" % (base, town, state, z, digits(r, 2))
    if c == "CA":
        town, prov, fsa = tw
        base = "%s %s" % (r.randint(10, 980), st)
        return (
            base
            if short
            else "%s, %s, %s %s %d%s%d"
            % (base, town, prov, fsa, r.randint(1, 9), r.choice("ABCEGHJKLMNPRSTVXY"), r.randint(0, 9))
        )
    if c in ("DE", "PL", "CZ", "SE", "NO", "FI", "NL", "IT"):
        pc, town = tw
        if c == "PL":
            num = "%d/%d" % (r.randint(1, 90), r.randint(1, 40)) if r.random() < 0.6 else house_no(r)
        elif c == "CZ":
            num = "%d/%d" % (r.randint(100, 2800), r.randint(1, 60)) if r.random() < 0.6 else house_no(r, 60)
        elif c == "NO":
            num = house_no(r, 90) + r.choice(["", "", "B", "A"])
        elif c == "FI":
            num = house_no(r, 40) + r.choice(["", " A %d" % r.randint(1, 30), " B %d" % r.randint(1, 30)])
        elif c == "NL":
            num = house_no(r, 300) + r.choice(["", "-II", "A", " hs"])
            pc = "%s %s" % (pc, upper_letters(r, 2))
        elif c == "SE":
            num = house_no(r, 60) + r.choice(["", "", " lgh 1102", "B"])
        else:
            num = house_no(r, 120) + r.choice(["", "", "a"])
        base = "%s %s" % (st, num)
        return base if short else "%s, %s %s" % (base, pc, town)
    if c == "FR":
        pc, town = tw
        base = "%s%s %s" % (house_no(r, 90), r.choice(["", "", " bis"]), st)
        return base if short else "%s, %s %s" % (base, pc, town)
    if c == "ES":
        pc, town = tw
        base = "%s %s" % (st, house_no(r, 150))
        if r.random() < 0.5:
            base += ", %dº %s" % (r.randint(1, 8), r.choice("ABCD"))
        return base if short else "%s, %s %s" % (base, pc, town)
    if c == "AR":
        pc, town = tw
        base = "%s %d" % (st, r.randint(100, 4800))
        if r.random() < 0.4:
            base += ", piso %d, depto %s" % (r.randint(1, 12), r.choice("ABCDE"))
        return base if short else "%s, %s %s" % (base, pc, town)
    if c == "BR":
        town, uf = tw
        base = "%s, %d" % (st, r.randint(10, 3200))
        if r.random() < 0.4:
            base += ", apto %d" % r.randint(11, 1204)
        return base if short else "%s, %s - %s, %s-%s" % (base, town, uf, digits(r, 5), digits(r, 3))
    if c == "IN":
        town, pin = tw
        base = "%s %d, %s" % (r.choice(["Flat", "House No.", "Door No."]), r.randint(1, 640), st)
        return base if short else "%s, %s %s" % (base, town, pin)
    if c == "JP":
        ward, city, pre = tw
        base = "%d-%d-%d %s" % (r.randint(1, 5), r.randint(1, 30), r.randint(1, 20), st)
        return base if short else "%s, %s, %s %s-%s" % (base, ward, city, pre, digits(r, 4))
    if c == "AU":
        sub, state, pc = tw
        base = "%s %s" % (house_no(r, 200), st)
        if r.random() < 0.3:
            base = "Unit %d/%s" % (r.randint(1, 20), base)
        return base if short else "%s, %s %s %s" % (base, sub, state, pc)
    if c == "IE":
        town, key = tw
        base = "%s %s" % (house_no(r, 90), st)
        return (
            base
            if short
            else "%s, %s, %s %s%d%s%d"
            % (base, town, key, upper_letters(r, 1), r.randint(1, 9), upper_letters(r, 1), r.randint(1, 9))
        )
    raise ValueError(c)


def ascii_fold(s):
    table = {"ł": "l", "Ł": "L", "ø": "o", "Ø": "O", "æ": "ae", "Æ": "AE", "ß": "ss", "ı": "i", "đ": "d"}
    s = "".join(table.get(ch, ch) for ch in s)
    s = unicodedata.normalize("NFKD", s)
    return "".join(ch for ch in s if not unicodedata.combining(ch))


def email(r):
    c = pick_culture(r)
    first = re.sub(r"[^a-z]", "", ascii_fold(r.choice(CULTURES[c][0])).lower())
    sur = re.sub(r"[^a-z]", "", ascii_fold(r.choice(CULTURES[c][1])).lower())
    form = r.randint(0, 6)
    if form == 0:
        local = first + "." + sur
    elif form == 1:
        local = first[0] + sur + digits(r, 2)
    elif form == 2:
        local = first + "_" + sur[:4] + str(r.randint(1975, 2008))
    elif form == 3:
        local = sur + "." + first[0]
    elif form == 4:
        local = first + digits(r, r.randint(2, 4))
    elif form == 5:
        local = first + "-" + sur
    else:
        local = first[:3] + sur[:3] + digits(r, 3)
    return local + "@" + r.choice(EMAIL_DOMAINS)


def phone(r):
    c = r.choice(["UK", "US", "DE", "FR", "ES", "IT", "PL", "CZ", "SE", "NO", "FI", "BR", "IN", "AU", "JP", "IE"])
    intl = r.random() < 0.5

    def d(n):
        return digits(r, n)

    if c == "UK":
        sub = "7" + str(r.randint(4, 9)) + d(2) + " " + d(6)
        return "+44 " + sub if intl else "0" + sub
    if c == "US":
        area = str(r.randint(201, 989))
        return "+1 %s-%s-%s" % (area, d(3), d(4)) if intl else "(%s) %s-%s" % (area, d(3), d(4))
    if c == "DE":
        pre = "1" + r.choice(["51", "52", "57", "60", "70", "76"])
        return "+49 %s %s" % (pre, d(8)) if intl else "0%s %s" % (pre, d(8))
    if c == "FR":
        first = r.choice("67")
        rest = " ".join(d(2) for _ in range(4))
        return "+33 %s %s" % (first, rest) if intl else "0%s %s" % (first, rest)
    if c == "ES":
        num = "6%s %s %s" % (d(2), d(3), d(3))
        return "+34 " + num if intl else num
    if c == "IT":
        num = "3%s %s %s" % (d(2), d(3), d(4))
        return "+39 " + num if intl else num
    if c == "PL":
        num = "%s%s %s %s" % (r.choice("5678"), d(2), d(3), d(3))
        return "+48 " + num if intl else num
    if c == "CZ":
        num = "%s%s %s %s" % (r.choice("67"), d(2), d(3), d(3))
        return "+420 " + num if intl else num
    if c == "SE":
        op = "7" + r.choice("0236")
        return "+46 %s %s %s %s" % (op, d(3), d(2), d(2)) if intl else "0%s-%s %s %s" % (op, d(3), d(2), d(2))
    if c == "NO":
        num = "%s%s %s %s" % (r.choice("49"), d(2), d(2), d(3))
        return "+47 " + num if intl else num
    if c == "FI":
        op = "4" + r.choice("0456")
        return "+358 %s %s %s" % (op, d(3), d(4)) if intl else "0%s %s %s" % (op, d(3), d(4))
    if c == "BR":
        ddd = r.choice(["11", "21", "31", "41", "51", "61", "81"])
        return "+55 %s 9%s-%s" % (ddd, d(4), d(4)) if intl else "(%s) 9%s-%s" % (ddd, d(4), d(4))
    if c == "IN":
        num = "%s%s %s" % (r.choice("6789"), d(4), d(5))
        return "+91 " + num if intl else "0" + num if r.random() < 0.3 else num
    if c == "AU":
        sub = "4%s %s %s" % (d(2), d(3), d(3))
        return "+61 " + sub if intl else "0" + sub
    if c == "JP":
        pre = r.choice(["90", "80", "70"])
        return "+81 %s-%s-%s" % (pre, d(4), d(4)) if intl else "0%s-%s-%s" % (pre, d(4), d(4))
    if c == "IE":
        op = "8" + r.choice("35679")
        return "+353 %s %s %s" % (op, d(3), d(4)) if intl else "0%s %s %s" % (op, d(3), d(4))
    raise ValueError(c)


IBAN_BBAN = {
    # country: list of (kind, length) where kind is 'n' digits, 'a' upper letters, 'c' alphanumeric
    "GB": [("a", 4), ("n", 14)],
    "IE": [("a", 4), ("n", 14)],
    "DE": [("n", 18)],
    "FR": [("n", 10), ("c", 11), ("n", 2)],
    "ES": [("n", 20)],
    "IT": [("a", 1), ("n", 10), ("c", 12)],
    "NL": [("a", 4), ("n", 10)],
    "PL": [("n", 24)],
    "CZ": [("n", 20)],
    "SE": [("n", 20)],
    "NO": [("n", 11)],
    "FI": [("n", 14)],
    "BE": [("n", 12)],
    "PT": [("n", 21)],
    "AT": [("n", 16)],
    "DK": [("n", 14)],
    "CH": [("n", 5), ("c", 12)],
}
IBAN_BANKS = {
    "GB": ["NWBK", "BARC", "LOYD", "MIDL", "HBUK", "MONZ"],
    "IE": ["AIBK", "BOFI"],
    "NL": ["ABNA", "INGB", "RABO", "TRIO"],
}


def iban_check(country, bban):
    s = bban + country + "00"
    num = "".join(str(int(ch, 36)) for ch in s)
    return "%02d" % (98 - int(num) % 97)


def iban_valid(iban):
    s = iban.replace(" ", "")
    s = s[4:] + s[:4]
    return int("".join(str(int(ch, 36)) for ch in s)) % 97 == 1


def iban(r):
    c = r.choice(list(IBAN_BBAN))
    parts = []
    for i, (kind, n) in enumerate(IBAN_BBAN[c]):
        if kind == "a" and i == 0 and c in IBAN_BANKS:
            parts.append(r.choice(IBAN_BANKS[c]))
        elif kind == "a":
            parts.append(upper_letters(r, n))
        elif kind == "n":
            parts.append(digits(r, n))
        else:
            parts.append("".join(r.choice("0123456789ABCDEFGHJKLMNPQRSTUVWXYZ0123456789") for _ in range(n)))
    bban = "".join(parts)
    full = c + iban_check(c, bban) + bban
    assert iban_valid(full)
    if r.random() < 0.6:
        return " ".join(full[i : i + 4] for i in range(0, len(full), 4))
    return full


def luhn_digit(body):
    total = 0
    for i, ch in enumerate(reversed(body)):
        v = int(ch)
        if i % 2 == 0:
            v *= 2
            if v > 9:
                v -= 9
        total += v
    return str((10 - total % 10) % 10)


def luhn_ok(num):
    ds = [int(ch) for ch in num if ch.isdigit()]
    total = 0
    for i, v in enumerate(reversed(ds)):
        if i % 2 == 1:
            v *= 2
            if v > 9:
                v -= 9
        total += v
    return total % 10 == 0


def credit_card(r):
    kind = r.choice(["visa", "visa", "mc", "mc2", "amex", "discover", "maestro"])
    if kind == "visa":
        body = "4" + digits(r, 14)
    elif kind == "mc":
        body = "5" + r.choice("12345") + digits(r, 13)
    elif kind == "mc2":
        body = "2" + str(r.randint(221, 720)) + digits(r, 11)
    elif kind == "amex":
        body = "3" + r.choice("47") + digits(r, 12)
    elif kind == "discover":
        body = "6011" + digits(r, 11)
    else:
        body = "6759" + digits(r, 11)
    num = body + luhn_digit(body)
    assert luhn_ok(num)
    if r.random() < 0.5:
        return num
    if len(num) == 15:
        return "%s %s %s" % (num[:4], num[4:10], num[10:])
    return " ".join(num[i : i + 4] for i in range(0, 16, 4))


# rough value of one unit of each currency in "euro-ish" terms, so amounts stay plausible
CURRENCY_SCALE = {
    "£": 0.85,
    "$": 1.1,
    "€": 1,
    " €": 1,
    " EUR": 1,
    " zł": 4.3,
    " Kč": 25,
    " kr": 11,
    "R$ ": 5.5,
    "₹": 35,
    "A$": 1.6,
    "CHF ": 0.95,
    " NOK": 11.5,
    "¥": 150,
}
# ranges in euro-ish terms per kind of money
MONEY_RANGES = {
    "small": (60, 4000),
    "debt": (300, 28000),
    "month": (700, 5200),
    "year": (16000, 140000),
    "big": (15000, 420000),
    "bonus": (500, 15000),
    "overdraft": (100, 2500),
    "student": (8000, 65000),
    "low_month": (300, 1800),
    "arrears": (250, 7000),
}


def group_indian(v):
    s = str(v)
    if len(s) <= 3:
        return s
    head, tail = s[:-3], s[-3:]
    parts = []
    while len(head) > 2:
        parts.insert(0, head[-2:])
        head = head[:-2]
    if head:
        parts.insert(0, head)
    return ",".join(parts) + "," + tail


def money(r, kind="debt", gbp=False):
    cur = CURRENCIES[0] if gbp else r.choice(CURRENCIES)
    pre, suf, th, dec = cur
    scale = CURRENCY_SCALE[pre or suf]
    lo, hi = MONEY_RANGES[kind]
    v = math.exp(r.uniform(math.log(lo), math.log(hi))) * scale  # log-uniform
    step = 1 if v < 1000 else 10 if v < 10000 else 100 if v < 100000 else 1000
    if r.random() < 0.5:
        step *= 10
    v = max(step, int(round(v / step)) * step)
    s = group_indian(v) if pre == "₹" else "{:,}".format(v).replace(",", th)
    if kind in ("small", "debt") and v < 5000 and r.random() < 0.2 and pre != "¥":
        s += dec + digits(r, 2)
    elif v >= 10000 and v % 1000 == 0 and r.random() < 0.3 and pre in ("£", "$", "€", "A$"):
        s = "%dk" % (v // 1000)
    return pre + s + suf


def article(amount):
    """'a' or 'an' as said aloud before the amount."""
    if amount.startswith(("A$", "R$")):
        return "an" if amount.startswith("A$") else "a"
    if amount[0].isdigit():
        lead = re.match(r"\d+", amount).group(0)
        if lead.startswith("8") or lead in ("11", "18"):
            return "an"
    return "a"


def fill_amount(pattern, amount):
    out = pattern.replace("a {a}", article(amount) + " {a}") if pattern.startswith("a {a}") else pattern
    return out.format(a=amount)


def fin_debt(r):
    p = r.choice(FIN_DEBT)
    kind = (
        "big"
        if "mortgage" in p
        else "student"
        if "student" in p
        else "overdraft"
        if "overdraft" in p
        else "arrears"
        if ("arrears" in p or "bills" in p or "landlord" in p)
        else "debt"
    )
    return fill_amount(p, money(r, kind, gbp=("council tax" in p or "Klarna" in p)))


def fin_income(r):
    p = r.choice(FIN_INCOME)
    if "hour" in p:
        pre, suf, th, dec = r.choice(CURRENCIES[:5])
        a = "%s%d%s%02d%s" % (pre, r.randint(9, 48), dec, r.choice([0, 25, 50, 75, 10, 90]), suf)
    elif "bonus" in p:
        a = money(r, "bonus")
    elif "year" in p or "salary" in p:
        a = money(r, "year")
    elif "benefits" in p or "part-time" in p or "pension" in p:
        a = money(r, "low_month")
    else:
        a = money(r, "month")
    return fill_amount(p, a)


def fin_savings(r):
    p = r.choice(FIN_SAVINGS)
    kind = (
        "big" if ("pension pot" in p or "inheritance" in p) else "small" if ("left" in p or "balance" in p) else "debt"
    )
    return fill_amount(p, money(r, kind, gbp=("ISA" in p)))


def fin_any(r):
    return r.choice([fin_debt, fin_income, fin_savings])(r)


def health_any(r):
    return r.choice(r.choice([HEALTH_COND, HEALTH_SYMPT, HEALTH_MED, HEALTH_TREAT]))


# slot name -> (entity type or None for distractors, maker)
SLOTS = {
    "FIRST": ("REAL_NAME", name_first),
    "FULL": ("REAL_NAME", name_full),
    "TITLED": ("REAL_NAME", name_titled),
    "NAME": ("REAL_NAME", name_any),
    "ADDR": ("ADDRESS", address),
    "EMAIL": ("EMAIL", email),
    "PHONE": ("PHONE", phone),
    "IBAN": ("IBAN", iban),
    "CARD": ("CREDIT_CARD", credit_card),
    "COND": ("HEALTH", lambda r: r.choice(HEALTH_COND)),
    "SYMPT": ("HEALTH", lambda r: r.choice(HEALTH_SYMPT)),
    "MED": ("HEALTH", lambda r: r.choice(HEALTH_MED)),
    "TREAT": ("HEALTH", lambda r: r.choice(HEALTH_TREAT)),
    "HEALTH": ("HEALTH", health_any),
    "DEBT": ("FINANCE", fin_debt),
    "INCOME": ("FINANCE", fin_income),
    "SAVINGS": ("FINANCE", fin_savings),
    "FIN": ("FINANCE", fin_any),
    "ORG": ("EMPLOYER", lambda r: r.choice(EMPLOYERS)),
    "WORK": ("EMPLOYER", lambda r: r.choice(WORKPLACES)),
    "SCHOOL": ("EMPLOYER", lambda r: r.choice(SCHOOLS)),
    "UNI": ("EMPLOYER", lambda r: r.choice(UNIVERSITIES)),
    # distractors: not spans
    "CELEB": (None, lambda r: r.choice(CELEBS)),
    "MUSIC": (None, lambda r: r.choice(MUSICIANS)),
    "FICT": (None, lambda r: r.choice(FICTIONAL)),
    "CO": (None, lambda r: r.choice(COMPANIES)),
    "PRODUCT": (None, lambda r: "%s is %s" % r.choice(PRODUCTS)),
    "FSTREET": (None, lambda r: r.choice(FAMOUS_STREETS)),
    "CSLINE": (None, lambda r: "%s customer service on %s" % r.choice(CS_LINES)),
    "HTALK": (None, lambda r: r.choice(HEALTH_TALK)),
}


# ---------------------------------------------------------------------------
# 3. TEMPLATES  ({SLOT} is filled from SLOTS; typed slots become spans)
# ---------------------------------------------------------------------------

T_NAME = [
    "can you help me write a birthday message for my sister {FIRST}? she's turning 30",
    "Hi, my name is {FULL} and I need help with a complaint letter.",
    "Please draft an email to {TITLED} asking to move our meeting to Thursday.",
    "my landlord {FULL} still hasn't returned my deposit, what are my options?",
    "lol {FIRST} just spilled coffee all over the printer again",
    "Write a reference letter for {FULL}, who worked with me for three years.",
    "does anyone know {FULL}? we went to school together and i lost touch. pretty sure {FULL} was in our year too",
    "my son {FIRST} keeps getting picked on at school, how do i raise it with the teacher?",
    "Translate this for my neighbour {TITLED}: the parcel is in the shed.",
    "{FIRST} and {FIRST} are getting married in June and i'm the best man, help!!",
    "ugh my ex {FIRST} texted me again at 2am",
    "can u proofread this, it's a thank-you card for {TITLED} from all of us on the ward",
    "My grandmother {FULL} passed away last week and I need help with the eulogy.",
    "pls summarise this chat between me and {FIRST} so i can send it to HR",
    "Our new babysitter is called {FULL}, is it weird to google her?",
    "hey it's {FIRST} from the yoga class, can i borrow ur mat tmrw",
    "I'm writing a wedding speech for my brother {FIRST} and his fiancée {FULL}.",
    "my flatmate {FULL} never pays for groceries, how do i bring it up without a fight",
    "{TITLED} from next door keeps parking across my driveway.",
    "rsvp for {FULL} + 1, we'll be there by 7",
    "How do I tell my boss {FIRST} that I'm quitting?",
    "my daughter {FIRST} wants a sleepover at {FIRST}'s, is 8 too young",
    "Can you write a short poem for {FIRST}'s retirement party?",
    "shoutout to {FULL} for fixing my bike for free today 🙌",
    "I need a polite message to {TITLED} reminding them about the unpaid invoice.",
    "met {FULL} at the conference, how do i follow up on linkedin without being weird",
    "Could you make a chore chart for {FIRST}, {FIRST} and {FIRST}?",
    "my stepdad {FULL} is trying to contest my mum's will",
    "Tell {FIRST} I said happy anniversary x",
    "The tenant downstairs, {TITLED}, has complained about the noise again.",
    "idk how to reply to {FIRST}, she's been ignoring me for a week",
    "Write a cover note from {FULL} applying for the volunteer role.",
    "my piano teacher {TITLED} is moving away and i want to get her a gift",
    "Can you help me find a nice way to say no to {FIRST}'s dinner invite?",
    "my carer {FULL} is brilliant, how do i nominate her for an award",
    "anyone in the group chat heard from {NAME} since friday?",
    "Please address the certificate to {TITLED}.",
    "i'm {FULL}, 34, looking for a running buddy in the area",
    "We're naming the baby after my great-grandfather, {FULL}.",
    "omg {FIRST} just got engaged!!! 💍",
    "Help me write a condolence card to {TITLED} and family.",
    "coach {FIRST} benched me again for no reason",
    "My co-parent {FULL} wants to change the custody schedule.",
    "can you format this invite list: {FULL}, {FULL}, {FULL}",
    "the delivery driver asked for {TITLED} but nobody by that name lives here",
    "{FIRST} from accounts keeps cc'ing my manager on everything",
    "Write a text to {FIRST} saying sorry I missed the call.",
    "my bf {FIRST} forgot our anniversary AGAIN",
]

T_ADDR = [
    "can you write a letter to the council about the potholes outside {ADDR}?",
    "my new address is {ADDR}, pls update it on my account",
    "Send the invoice to {ADDR}, attention {FULL}.",
    "we just moved into {ADDR} and the boiler is already broken",
    "party at mine saturday!! {ADDR}, bring snacks",
    "Please change my delivery address to {ADDR}.",
    "my grandma lives at {ADDR} and her neighbours keep dumping rubbish in her garden",
    "I'm selling my flat at {ADDR}; can you help me write the listing?",
    "the parcel was marked delivered but it never arrived at {ADDR}",
    "hey {FIRST}, the spare key for {ADDR} is under the blue plant pot",
    "Write a formal complaint to my landlord about damp at {ADDR}.",
    "lost cat near my house at {ADDR}, ginger, answers to Biscuit, pls dm me",
    "My ex still has mail going to {ADDR}, how do I stop it?",
    "can u help me fill in the form? home address: {ADDR}",
    "For the school registration: {FULL}, {ADDR}.",
    "I grew up at {ADDR} and I'm thinking of buying it back.",
    "the taxi should pick me up from {ADDR} at 6:15",
    "Please forward all post from my old flat to {ADDR} until March.",
    "i'm staying at my cousin's place, {ADDR}, until the end of the month",
    "Draft a tenancy agreement for the room at {ADDR}, tenant {FULL}.",
    "water has been leaking through the ceiling at {ADDR} for 3 weeks",
    "Return address: {ADDR}",
    "My mum's care package should go to {ADDR}, not the hospital.",
    "pizza order for {FIRST} at {ADDR}, buzzer doesn't work so knock",
    "Is it legal for my landlord to enter {ADDR} without notice?",
    "we're hosting the book club at {ADDR} this month, 7pm",
    "The court letter went to {ADDR}, but I moved out last year.",
    "my car is registered at {ADDR}, do i need to update it after the move",
    "Write a welcome note for the guests staying in my spare room at {ADDR}.",
    "someone tried to break into our shed at {ADDR} last night 😡",
    "Please confirm the survey appointment at {ADDR} on Monday.",
    "My daughter's new flat is at {ADDR}; is it a safe area?",
    "the bailiffs came to {ADDR} looking for the previous tenant",
    "can you work out the fastest route from {ADDR} to the airport?",
    "i've lived at {ADDR} for 12 years and the rent just went up again",
    "Ship both orders to {ADDR} please, it's my parents' house.",
    "Our wedding reception will be in the back garden at {ADDR}.",
    "fyi the gas engineer is coming to {ADDR} between 8 and 12",
    "How do I register to vote at {ADDR} after moving?",
    "the keys to {ADDR} are with {FULL} next door",
    "I need a letter confirming I live at {ADDR} for my bank.",
    "My brother {FIRST} has been sleeping on my sofa at {ADDR} since January.",
    "if anyone finds a black wallet near {ADDR} pls message me, it's my house",
    "Please send the sympathy flowers to {ADDR}.",
    "my nan's bungalow at {ADDR} needs a ramp, who do i ask",
    "Babysitting tonight at {ADDR}, the kids go to bed at 8.",
    "can i get my prescription delivered to {ADDR} instead",
    "We're swapping houses for the summer: ours is {ADDR}.",
]

T_EMAIL = [
    "my email is {EMAIL}, can you send me the recipe?",
    "Please write an email to {EMAIL} asking for a refund for the sofa I bought from her.",
    "contact me at {EMAIL} if u wanna buy the bike",
    "I can't log in, my account email is {EMAIL}.",
    "Forward the minutes to {FULL} at {EMAIL}.",
    "pls cc {EMAIL} on the invite, that's my wife's personal one",
    "Is {EMAIL} a sensible address to put on my CV?",
    "My old email {EMAIL} got hacked, what should I do?",
    "selling 2 concert tix, email {EMAIL}",
    "Can you draft a reply to {EMAIL}? She asked about the lease.",
    "reach {FIRST} on {EMAIL}, he's the one organising the stag",
    "Update my contact email to {EMAIL} please.",
    "got a weird phishing mail sent to {EMAIL}, should i report it",
    "The tutor's email is {EMAIL}, but she never replies.",
    "write a polite follow-up to {EMAIL} about the job interview",
    "Send the photos to {EMAIL} when you get a chance.",
    "my kid's teacher asked parents to email her private address {EMAIL}, is that normal?",
    "I registered with {EMAIL} but the confirmation never came.",
    "if u find my dog pls email {EMAIL} asap",
    "Please add {EMAIL} to the family calendar.",
    "Could you write a short bio for my website? Contact: {EMAIL}",
    "{FULL} ({EMAIL}) will be the emergency contact.",
    "someone signed me up to spam using {EMAIL} smh",
    "The reset link should go to {EMAIL}, not the old work address.",
    "my mum only uses {EMAIL}, so send the card there",
    "You can reach me at {EMAIL} or on {PHONE}.",
    "help me unsubscribe {EMAIL} from all these newsletters",
    "Write a LinkedIn post saying people can contact me at {EMAIL}.",
    "tenant contact: {FULL}, {EMAIL}",
    "is it ok to share {EMAIL} in the class whatsapp?",
    "I accidentally sent my CV to {EMAIL} instead of the recruiter.",
    "Please invite {EMAIL} to the shared folder.",
    "dm me or email {EMAIL} for commissions 🎨",
    "My Apple ID is {EMAIL}, why is it locked?",
    "hi, it's {FIRST}, my new email's {EMAIL} btw",
    "Can you check if {EMAIL} appears in any known data breaches?",
    "send the signed lease to {EMAIL} by friday",
    "Our wedding RSVPs go to {EMAIL}.",
    "My sister {FIRST} wants the receipts emailed to {EMAIL}.",
    "ugh typo'd my own address on the form, it's {EMAIL} not the one i wrote",
    "Please set up an auto-forward from my inbox to {EMAIL}.",
    "the club secretary is {FULL}, email {EMAIL}",
    "Write a short out-of-office saying urgent stuff goes to {EMAIL}.",
    "the seller gave me {EMAIL} but it bounced",
    "My PayPal is linked to {EMAIL}.",
    "could you check whether {EMAIL} is formatted correctly?",
    "fyi {FIRST}'s email changed to {EMAIL}",
]

T_PHONE = [
    "call me on {PHONE} when ur outside",
    "my number is {PHONE}, text me if the plans change",
    "Please update my phone number to {PHONE}.",
    "{FIRST}'s new number is {PHONE}, save it",
    "Can you write a lost-dog poster? Call {PHONE}.",
    "i keep getting scam calls on {PHONE}, how do i block them",
    "The babysitter's mobile is {PHONE} in case of emergency.",
    "text {PHONE} if u want the sofa, free to collect",
    "My mum's landline is {PHONE} but she rarely picks up.",
    "Emergency contact: {FULL}, {PHONE}.",
    "whatsapp me on {PHONE} for directions",
    "Write a text to {PHONE} saying I'll be 10 minutes late.",
    "Please put {PHONE} on the booking so the driver can reach me.",
    "i changed my number to {PHONE}, the old one's dead",
    "my grandad {FULL} can be reached on {PHONE}",
    "Is {PHONE} written in the right format for calling from abroad?",
    "ring {PHONE} and ask for {NAME}",
    "Can you add {PHONE} to my contacts as 'Mum'?",
    "the guy selling his car gave me {PHONE}, looks legit?",
    "My daughter's number is {PHONE}; she's on exchange this term.",
    "reach me at {PHONE} after 6pm",
    "Please send the verification code to {PHONE}, not my old phone.",
    "for the carpool, drivers are {FIRST} ({PHONE}) and {FIRST} ({PHONE})",
    "My SIM for {PHONE} got swapped without my permission.",
    "if ur interested in the flat share call {FIRST} on {PHONE}",
    "Write a voicemail greeting that says to call {PHONE} for urgent things.",
    "I think my ex is using {PHONE} to harass me, what can I do?",
    "my number's {PHONE} if the tutor needs to reschedule",
    "Please text the pickup code to {PHONE}.",
    "my partner's phone is {PHONE}, call her if i don't answer",
    "The hospital asked for a next-of-kin number, I gave them {PHONE}.",
    "Could you format {PHONE} so it works from abroad?",
    "my son {FIRST} lost his phone, his number was {PHONE}",
    "Book a table for four under {FULL}, contact {PHONE}.",
    "pls don't give out {PHONE} to anyone, it's my private line",
    "For delivery questions call me on {PHONE}.",
    "The nanny's number is {PHONE}, she speaks some English.",
    "new phone who dis 😂 it's {FIRST}, {PHONE}",
    "Set a reminder to call {PHONE} at 4pm about the results.",
    "Maths tutor available, call or text me on {PHONE}.",
    "If anyone finds my keys please ring {PHONE}.",
    "i'm {FULL}, my mobile is {PHONE}, pls call back",
    "What country code is in {PHONE}?",
    "my neighbour {TITLED} asked me to give u her number, {PHONE}",
    "missed call from my cousin on {PHONE}, can u help me word a reply text",
    "Please save {PHONE} as my second number on the account.",
]

T_IBAN = [
    "pls send the rent to {IBAN}, ref flat 3",
    "My IBAN is {IBAN}, can you check it's valid?",
    "Write an email asking my employer to pay my wages into {IBAN}.",
    "send me the money for the tickets, my iban is {IBAN}",
    "Account holder: {FULL}, IBAN: {IBAN}.",
    "Is it safe to give my IBAN {IBAN} to a buyer on Vinted?",
    "Please refund me to {IBAN}.",
    "my dad's account is {IBAN}, put the deposit there",
    "Can you fill in this SEPA form? IBAN {IBAN}, name {FULL}.",
    "the private seller wants me to pay into {IBAN}, scam or not?",
    "I need to change my direct debit to come from {IBAN}.",
    "split the bill and send my share to {IBAN} pls",
    "Payments for the class trip go to {IBAN}, that's my own account as class rep.",
    "double check this iban for me: {IBAN}",
    "My new bank details are {IBAN}; please update payroll.",
    "Write a letter to the tax office asking them to pay my refund into {IBAN}.",
    "got my first bank account!! {IBAN} 🥳 never sharing this again lol",
    "the wedding invite says guests can transfer to {IBAN}, is that tacky?",
    "Please pay the babysitting money into {IBAN}.",
    "{NAME} asked me to send her share to {IBAN}.",
    "Why would my transfer to {IBAN} bounce? It's my brother's account.",
    "Rent should be paid monthly to {IBAN}, owner {TITLED}.",
    "can u tell me the bank code inside {IBAN}",
    "I accidentally posted {IBAN} in a public group, what now?",
    "Deposit refund: please return it to {IBAN}.",
    "my mum's pension goes into {IBAN}, can i set up a standing order from it",
    "Translate into German: please transfer the money to my account {IBAN}.",
    "the fundraiser for {FIRST}'s new wheelchair is going to {IBAN}",
    "Send my expenses to {IBAN}, not the old account.",
    "Which country is {IBAN} from?",
    "my flatmate gave me {IBAN} for the bills",
    "Please write a payment reminder to my tenant with my bank details {IBAN}.",
    "For the bake sale I'm collecting into my own account, {IBAN}.",
    "received a request to pay into {IBAN}, but the name doesn't match {FULL}",
    "hey can u pay me back for the concert, iban {IBAN}",
    "Freelance invoice: pay {IBAN}, beneficiary {FULL}.",
    "My salary account is {IBAN}, can you explain what each part means?",
    "the club fees go to the treasurer's personal account {IBAN}, is that ok?",
    "Please validate the checksum of {IBAN}.",
    "i'm paying my grandparents back, their iban is {IBAN}",
    "Set up a recurring transfer from {IBAN} on the first of every month.",
    "Where do I find the BIC for my account {IBAN}?",
    "Write a note to my landlord saying rent now comes from {IBAN}.",
    "The holiday flat owner asked me to pay outside the app to {IBAN}.",
    "pls pay the deposit for the puppy to {IBAN}",
    "my iban changed, it's {IBAN} now",
    "My joint account with {FIRST} is {IBAN}.",
]

T_CARD = [
    "my card {CARD} was charged twice, help me write a complaint",
    "Is {CARD} a Visa or a Mastercard?",
    "someone used my card {CARD} to buy stuff online, what do i do",
    "Please block my card {CARD} immediately.",
    "card number {CARD}, exp 09/27, name {FULL}",
    "Can you check if {CARD} passes the Luhn check?",
    "I saved {CARD} in my browser, is that risky?",
    "My son put my card {CARD} into a game and spent loads.",
    "dispute letter for the charge on {CARD} pls, the seller never shipped",
    "Pay for the hotel with {CARD}, booking under {FULL}.",
    "omg i just pasted my card number {CARD} into the wrong chat",
    "The new card is {CARD}; please update my subscription.",
    "my mum read out her card {CARD} to a cold caller 😭",
    "How do I remove {CARD} from my Amazon account?",
    "Write a letter to my bank asking why {CARD} was declined abroad.",
    "Use my card {CARD} for the deposit please.",
    "is it normal that {CARD} got a charge from a company i've never heard of",
    "Card: {CARD}. I'll give the CVV over the phone.",
    "Please refund the order to my original card {CARD}.",
    "my credit card {CARD} expires next month, how do i get a new one",
    "I found an old card of mine, {CARD}, is it still active?",
    "{NAME} borrowed my card {CARD} and didn't give it back",
    "The gym keeps charging {CARD} even after I cancelled.",
    "can u mask {CARD} for this screenshot",
    "Add {CARD} as my backup payment method.",
    "My card number is {CARD}, which bank issued it?",
    "fraud alert on {CARD} this morning, is this text legit",
    "Please charge the rest of the holiday to my card {CARD}.",
    "I gave {CARD} to a website that turned out to be fake.",
    "write a chargeback request for {CARD}, transaction on the 14th",
    "my dad's card {CARD} was swallowed by the cash machine",
    "Book the flights on {CARD} and send the receipt to {EMAIL}.",
    "why does {CARD} have a different number of digits than my other card",
    "pls dont judge but i wrote {CARD} on a post-it on my fridge",
    "The cinema charged {CARD} for tickets I didn't buy.",
    "My virtual card for online shopping is {CARD}.",
    "Could you format {CARD} with spaces every four digits?",
    "ordering the cake now, paying with my card {CARD}",
    "my wallet got stolen, cards inside incl {CARD}",
    "Please update the card on file for {FULL} to {CARD}.",
    "Netflix took money from {CARD} after I cancelled, help",
    "Is it safe to send {CARD} over WhatsApp to my sister?",
    "i think {CARD} was skimmed at the petrol station",
    "Our shared card for household stuff is {CARD}.",
    "My prepaid card {CARD} won't work for tolls.",
    "yo can u check what type of card {CARD} is",
    "{TITLED} gave me her card {CARD} to pay for the taxi, is that ok to keep on file?",
]

T_HEALTH = [
    "i was diagnosed with {COND} last month and i'm still processing it",
    "My husband has {COND}; what foods should he avoid?",
    "been on {MED} for 3 weeks and i feel so tired, is that normal?",
    "Can you write a note to my boss explaining I need time off for {TREAT}?",
    "my mum's been having {SYMPT} and won't see a doctor",
    "I'm starting {TREAT} next week, any tips?",
    "tbh i've had {SYMPT} since the accident",
    "Help me explain to my kids that I have {COND}.",
    "{NAME} is on {MED} so she can't drink at the party",
    "is it ok to drink alcohol while i'm on {MED}?",
    "My dad {FULL} just finished {TREAT}.",
    "I have {COND} and my employer won't make adjustments.",
    "can u write a fundraiser page for my sister's {TREAT}",
    "After {TREAT} I can't lift anything for six weeks.",
    "my doc switched me from {MED} to {MED}",
    "I think I'm having {SYMPT}, should I go to A&E?",
    "my partner has {COND} and i'm struggling as a carer",
    "Draft a message to my team: I'll be off for {TREAT} from Monday.",
    "ngl {MED} has changed my life",
    "My son was just diagnosed with {COND}; where do I start?",
    "does {COND} qualify for disability benefits? asking for myself",
    "I've had {SYMPT} for two weeks now.",
    "my gran is in hospital recovering from {TREAT}",
    "Write a letter to the school saying my daughter has {COND}.",
    "i ran out of {MED} and the pharmacy is closed, help",
    "{NAME} told me in confidence she has {COND}",
    "I'm on {MED} and {MED}, any interactions?",
    "I've been having {SYMPT} since I started {MED}.",
    "my boyfriend has {COND} and won't talk about it",
    "can you help me plan meals around my {COND}",
    "Help me fill in the insurance form: pre-existing condition {COND}.",
    "waiting list for my {TREAT} is 18 months, this is ridiculous",
    "Is {SYMPT} a side effect of {MED}? I've had both since March.",
    "My wife is having {TREAT} and I want to support her.",
    "just got back from my first session of {TREAT}, feeling wiped",
    "I need to tell my new employer I'm on {MED}. Do I have to?",
    "my colleague {FULL} has {COND}, how can i support her at work",
    "I have {COND}, can I still travel long-haul?",
    "been dealing with {SYMPT} all week, can't sleep",
    "The GP prescribed me {MED} yesterday.",
    "My brother {FIRST} is recovering from {TREAT}.",
    "i was off work for {TREAT} and now HR wants a meeting",
    "Explain my test results: they say I have {COND}.",
    "{TITLED} from church has {COND}, should we organise meals for her?",
    "I'm on {MED}, can I still donate blood?",
    "my mate's had {SYMPT} since the rugby match",
    "Need a sick note template for my work, reason: {TREAT}.",
    "my husband stopped taking {MED} without telling the doctor",
    "I was diagnosed with {COND} at 19 and nobody at work knows.",
    "Can you make me a reminder to take {MED} every morning?",
    "she's had {SYMPT} ever since the fall, should we worry",
    "my little one has {COND}, any tips for the school trip?",
    "after years of {SYMPT} i finally got a diagnosis: {COND}",
]

T_FIN = [
    "i've got {DEBT} and no idea where to start",
    "I'm on {INCOME}, how much should I be saving?",
    "we have {SAVINGS}, should we overpay the mortgage?",
    "My brother has {DEBT} and keeps asking me for help.",
    "Write a letter to my creditors offering a payment plan for {DEBT}.",
    "honestly just found out i have {DEBT} 😭",
    "I have {SAVINGS}, is that enough for an emergency fund?",
    "my partner is on {INCOME} and i'm not working rn",
    "Can you help me budget? I'm on {INCOME} and have {DEBT}.",
    "My mum has {DEBT} and the debt collectors keep calling.",
    "I'm 25 with {SAVINGS}, am I behind?",
    "just got offered {INCOME}, should i negotiate?",
    "Please draft an email to HR: I was promised {INCOME} but I'm getting less.",
    "how long would it take me to clear {DEBT}?",
    "Is {INCOME} a good wage for a junior developer? That's what I'm on.",
    "After the divorce I'm left with {SAVINGS}.",
    "{NAME} told me she's got {DEBT}, should i lend her money",
    "I want to move out but I only have {SAVINGS}.",
    "my husband hid {DEBT} from me for two years",
    "Can you write a hardship letter? I have {DEBT} and I'm on {INCOME}.",
    "i'm on {INCOME} and still can't afford rent lol",
    "We're trying to buy our first home with {SAVINGS}.",
    "Does having {DEBT} affect my credit score?",
    "i'm on {INCOME} and my rent takes half of it",
    "we've got {SAVINGS} and i want to invest it, any ideas",
    "My flatmate {FIRST} has {DEBT} and might not make rent.",
    "I'm 30 and have {DEBT}, is that normal?",
    "checked the app and apparently i have {SAVINGS}, that can't be right",
    "i just got a raise, now on {INCOME} 🎉",
    "Please help me fill in the benefits form, I'm on {INCOME} and have {SAVINGS}.",
    "My ex left me with {DEBT}.",
    "I'm on {INCOME} and have {SAVINGS}, can I retire at 60?",
    "My wife earns more than me, she's on {INCOME}.",
    "I've got {DEBT}; is bankruptcy an option?",
    "pls help me make a spreadsheet to pay off {DEBT}",
    "I haven't told my partner {FIRST} about {DEBT}.",
    "Am I eligible for council tax support if I'm on {INCOME}?",
    "so i opened my banking app and i have {SAVINGS} 🙃",
    "My daughter finished uni with {DEBT}.",
    "Write a note to my accountant: last year I was on {INCOME}.",
    "We have {DEBT} and two kids, what help is out there?",
    "Can I negotiate {DEBT} down with the lender?",
    "My grandad wants to know if {INCOME} counts as taxable, it's all he gets.",
    "since January i've got to {SAVINGS}, proud of myself",
    "my dad {FULL} has {DEBT} and won't accept help",
    "ngl i'm drowning, {DEBT} and {DEBT} on top",
    "quick q: i'm on {INCOME}, can i get a mortgage on my own?",
    "Should I use {SAVINGS} to clear {DEBT}?",
]

T_ORG = [
    "i work at {ORG} and my manager keeps changing my shifts",
    "Write a resignation letter to {ORG} for me.",
    "my wife teaches at {SCHOOL}",
    "I've been at {ORG} for six years, is it time to move on?",
    "anyone else here work for {ORG}? the new rota is a joke",
    "My son just started at {SCHOOL}, any tips for the first term?",
    "Help me prepare for my interview, I'm moving from {ORG} to a bigger firm.",
    "{NAME} got a job at {ORG}!! so proud",
    "I'm a nurse at {WORK} and we're short-staffed every night.",
    "Please write a LinkedIn summary: {FULL}, project lead at {ORG}.",
    "got made redundant from {ORG} today",
    "my daughter studies at {UNI}, is the campus safe at night",
    "Draft an email to HR at {ORG} asking about my parental leave.",
    "i'm a cleaner at {WORK}, do i get holiday pay",
    "My boss at {ORG} wants me to work unpaid overtime.",
    "Can you help with my grievance letter? I work for {ORG}.",
    "my dad drives for {WORK}, he's never home",
    "I just accepted an offer from {ORG}!",
    "started my apprenticeship at {WORK} today 🔧",
    "{FULL} is my line manager at {ORG}.",
    "Write a reference for my colleague {FIRST} at {ORG}.",
    "I'm a teaching assistant at {SCHOOL} and the head is making my life hell.",
    "my boyfriend works at {ORG}, should i go to his work party",
    "I'm doing my PhD at {UNI} and my supervisor ignores me.",
    "Does {ORG} have to pay me for the training day? I'm part-time there.",
    "ugh another 12 hour shift at {ORG}",
    "My mother volunteers at {ORG} every Tuesday.",
    "Help me write my leaving speech for {ORG}.",
    "i've been at {ORG} since 2015 and never had a pay rise",
    "My brother is an engineer at {WORK}.",
    "is it weird to list {ORG} on my CV if i only worked there 2 months",
    "Cover letter please: I'm currently a receptionist at {WORK}.",
    "my kids both go to {SCHOOL}",
    "I'm on a zero-hours contract at {ORG}.",
    "{FIRST} from {ORG} asked me out, we work on the same floor",
    "Got my acceptance letter from {UNI} 😭🎓",
    "I teach year 4 at {SCHOOL}, need ideas for a science week",
    "My husband was fired from {ORG} without warning.",
    "i work nights at {ORG} and can't sleep during the day",
    "Please write an email to my manager at {ORG} asking for flexible hours.",
    "Our team at {ORG} is moving to a 4-day week, I'm so happy.",
    "My flatmate interns at {WORK} and never pays on time.",
    "I'm the only woman on the dev team at {WORK}.",
    "how do i tell my manager at {ORG} i'm leaving",
    "Write a thank-you note to my colleagues at {ORG} for the leaving gift.",
    "my sister just got promoted to head chef at {WORK}",
    "I study nursing at {UNI} and placements are unpaid.",
    "been working remote for {WORK} for 2 yrs, never met my team irl",
]

T_NEG = [
    "did u see {CELEB} at the awards last night? iconic",
    "{CO} just announced another round of layoffs, wild",
    "Write a short essay on {FICT} as a tragic hero.",
    "apparently {PRODUCT} now, that's insane",
    "how do i get from the station to {FSTREET}? walking",
    "the website says to ring {CSLINE}, anyone tried?",
    "Can you summarise the latest advice on {HTALK}?",
    "{MUSIC} is playing in town next month, tickets sold out in 2 mins",
    "Explain why {FICT} is such a popular character.",
    "{CO} shares dropped 8% after the earnings call.",
    "take the second left after {FSTREET}, the café is on the corner",
    "is all the fuss about {HTALK} justified or just hype?",
    "I think {CELEB} gave the best speech of the year.",
    "writing fanfic about {FICT}, need a plot twist",
    "{CO} is opening a new store on {FSTREET}.",
    "hot take: {FICT} deserved better",
    "just saw that {PRODUCT}, not buying it",
    "anyone know how to reach a human? nvm found it, {CSLINE}",
    "How many calories are in a banana?",
    "the weather is grim today, staying in with tea",
    "Can you recommend a good sci-fi book for a long flight?",
    "{CELEB} was spotted on {FSTREET} filming something",
    "Write a limerick about {FICT}.",
    "Is it true that {CO} is merging with {CO}?",
    "the GP surgery newsletter is all about {HTALK} this month",
    "the bus diverts along {FSTREET} because of roadworks",
    "Help me plan a 3-day trip to Lisbon.",
    "ok who else is watching the match tonight",
    "{CO}'s new CEO said they'll hire 2,000 people in Europe.",
    "Compare {FICT} and {FICT} as characters.",
    "Translate 'good morning, how are you' into Polish.",
    "the news keeps talking about {HTALK}, is it serious?",
    "{MUSIC} just released a new single and it slaps",
    "what's a good recipe for lentil soup",
    "Why did {CO} recall their latest product?",
    "there's a great ramen place just off {FSTREET}, no idea of the number tho",
    "saw online that {PRODUCT}, is that a good deal?",
    "Summarise {CELEB}'s career in three sentences.",
    "my cat knocked the plant off the shelf again 🙄",
    "Write a product description for a bamboo toothbrush.",
    "if your order's late you can call {CSLINE}, they're open till 8",
    "Any tips for staying motivated when studying?",
    "Who played {FICT} in the first film?",
    "how long is the walk from the cathedral down {FSTREET}?",
    "Explain the difference between a virus and bacteria for a 10-year-old.",
    "{MUSIC} and {MUSIC} doing a collab?? no way",
    "Is {HTALK} backed by research?",
    "The museum is at the end of {FSTREET}, you can't miss it.",
    "What's the capital of Australia?",
    "{CO} quarterly profit beat forecasts, according to the papers.",
    "Rank the fantasy films of the 2000s from best to worst.",
    "does anyone know if the market on {FSTREET} is on this sunday",
    "apparently {PRODUCT} here, is it cheaper abroad?",
    "Give me a workout plan for beginners, three days a week.",
    "the pharmacy at the top of {FSTREET} closes at 6 now",
    "{FICT} would absolutely hate social media lol",
    "Please write a haiku about autumn rain.",
    "General question: how much water should adults drink per day?",
    "{CELEB}'s documentary was surprisingly good",
    "lost your card? call {CSLINE} and they'll sort a replacement",
    "In general, is {HTALK} something doctors worry about?",
    "{CO} has raised prices again, they blame energy costs",
    "Who would win in a fight, {FICT} or {FICT}?",
    "wait is {CELEB} really retiring?? 😢",
]


# ---------------------------------------------------------------------------
# 4. ASSEMBLY
# ---------------------------------------------------------------------------

SLOT_RE = re.compile(r"\{([A-Z]+)\}")
TYPES = ["REAL_NAME", "ADDRESS", "EMAIL", "PHONE", "IBAN", "CREDIT_CARD", "HEALTH", "FINANCE", "EMPLOYER"]
# wanted number of filled slots per type over the whole file (drives the choice of extra sentences)
TARGETS = {
    "REAL_NAME": 300,
    "ADDRESS": 110,
    "EMAIL": 55,
    "PHONE": 60,
    "IBAN": 55,
    "CREDIT_CARD": 55,
    "HEALTH": 150,
    "FINANCE": 100,
    "EMPLOYER": 85,
}
FIRST_CULTURE = {}
for _k in CULTURE_KEYS:
    for _f in CULTURES[_k][0]:
        FIRST_CULTURE.setdefault(_f, _k)
SUR_CULTURE = {}
for _k in CULTURE_KEYS:
    for _s in CULTURES[_k][1]:
        SUR_CULTURE.setdefault(_s, _k)


class Deck:
    """Draws every item once (in seeded random order) before repeating."""

    def __init__(self, items, r):
        self.items, self.r, self.pool = list(items), r, []

    def next(self):
        if not self.pool:
            self.pool = self.items[:]
            self.r.shuffle(self.pool)
        return self.pool.pop()


def build_makers(r):
    first_deck = Deck(FIRST_NAMES, r)
    sur_deck = Deck(SURNAMES, r)
    first_decks = {k: Deck(CULTURES[k][0], r) for k in CULTURE_KEYS}
    street_deck = Deck(ALL_STREETS, r)
    decks = {
        k: Deck(v, r)
        for k, v in [
            ("COND", HEALTH_COND),
            ("SYMPT", HEALTH_SYMPT),
            ("MED", HEALTH_MED),
            ("TREAT", HEALTH_TREAT),
            ("ORG", EMPLOYERS),
            ("CELEB", CELEBS),
            ("WORK", WORKPLACES),
            ("SCHOOL", SCHOOLS),
            ("UNI", UNIVERSITIES),
            ("MUSIC", MUSICIANS),
            ("FICT", FICTIONAL),
            ("CO", COMPANIES),
            ("FSTREET", FAMOUS_STREETS),
            ("HTALK", HEALTH_TALK),
        ]
    }

    def first():
        return first_deck.next()

    def full():
        # surname-driven, so that every surname gets used; first name mostly from the same culture
        sur = sur_deck.next()
        c = SUR_CULTURE[sur] if r.random() < 0.85 else r.choice(CULTURE_KEYS)
        return first_decks[c].next() + " " + sur

    def titled():
        sur = sur_deck.next()
        c = SUR_CULTURE[sur]
        t = r.choice(TITLES + TITLES_LOCAL.get(c, []) * 2)
        return t + " " + sur if r.random() < 0.5 else t + " " + first_decks[c].next() + " " + sur

    def any_name():
        x = r.random()
        return first() if x < 0.4 else full() if x < 0.8 else titled()

    def health():
        return decks[r.choice(["COND", "COND", "SYMPT", "MED", "TREAT"])].next()

    m = dict(SLOTS)
    m.update(
        {
            "FIRST": ("REAL_NAME", lambda r_: first()),
            "FULL": ("REAL_NAME", lambda r_: full()),
            "TITLED": ("REAL_NAME", lambda r_: titled()),
            "NAME": ("REAL_NAME", lambda r_: any_name()),
            "ADDR": ("ADDRESS", lambda r_: address(r_, street=street_deck.next())),
            "HEALTH": ("HEALTH", lambda r_: health()),
        }
    )
    for k in ("COND", "SYMPT", "MED", "TREAT", "ORG", "WORK", "SCHOOL", "UNI"):
        m[k] = (SLOTS[k][0], (lambda d: lambda r_: d.next())(decks[k]))
    for k in ("CELEB", "MUSIC", "FICT", "CO", "FSTREET", "HTALK"):
        m[k] = (None, (lambda d: lambda r_: d.next())(decks[k]))
    return m


def all_templates():
    pos, neg, n = [], [], 0
    for group in (T_NAME, T_ADDR, T_EMAIL, T_PHONE, T_IBAN, T_CARD, T_HEALTH, T_FIN, T_ORG):
        for t in group:
            n += 1
            pos.append(("t%03d" % n, t))
    for t in T_NEG:
        n += 1
        neg.append(("t%03d" % n, t))
    return pos, neg


def slot_types(t):
    out = []
    for s in SLOT_RE.findall(t):
        typ = SLOTS[s][0]
        if typ:
            out.append(typ)
    return out


def fill(t, makers, r):
    text, spans, pos, used = [], [], 0, set()
    off = 0
    for m in SLOT_RE.finditer(t):
        lit = t[pos : m.start()]
        if text and text[-1].endswith(".") and lit.startswith("."):
            lit = lit[1:]
        text.append(lit)
        off += len(lit)
        typ, mk = makers[m.group(1)]
        v = mk(r)
        for _ in range(20):
            if v not in used:
                break
            v = mk(r)
        used.add(v)
        text.append(v)
        if typ:
            spans.append([off, off + len(v), typ])
        off += len(v)
        pos = m.end()
    tail = t[pos:]
    if text and text[-1].endswith(".") and tail.startswith("."):
        tail = tail[1:]  # "K.K." + "." -> no double full stop
    text.append(tail)
    return "".join(text), spans


def join(parts, r):
    text, spans = "", []
    for i, (t, sp) in enumerate(parts):
        if i:
            if text[-1] in ".!?)" or not text[-1].isalnum():
                sep = r.choice([" ", " ", "\n"])
            else:
                sep = r.choice([". ", ". ", "\n", " - "])
            text += sep
        base = len(text)
        text += t
        spans.extend([[s + base, e + base, ty] for s, e, ty in sp])
    return text, spans


def choose(cands, counts, r, k=8):
    best, best_score = None, -1.0
    for _ in range(k):
        tid, t = r.choice(cands)
        score = sum(max(0, TARGETS[ty] - counts[ty]) / TARGETS[ty] for ty in slot_types(t)) + r.random() * 0.05
        if score > best_score:
            best, best_score = (tid, t), score
    return best


def plan_messages(pos, neg, r):
    """Return a list of (is_positive, [(tid, template), ...])."""
    counts = {ty: 0 for ty in TYPES}

    def count(t):
        for ty in slot_types(t):
            counts[ty] += 1

    # sentence counts: about a third of messages join two or three sentences
    def sizes(n, n_joined):
        out = [1] * (n - n_joined) + [2 if r.random() < 0.7 else 3 for _ in range(n_joined)]
        r.shuffle(out)
        return out

    pos_sizes = sizes(N_POS, 160)
    neg_sizes = sizes(N_NEG, 40)
    cover = pos[:]
    r.shuffle(cover)
    firsts = cover + [None] * (N_POS - len(cover))
    for f in cover:
        count(f[1])
    plans = []
    for f, size in zip(firsts, pos_sizes):
        if f is None:
            f = choose(pos, counts, r)
            count(f[1])
        sent = [f]
        while len(sent) < size:
            nxt = choose([p for p in pos if p not in sent], counts, r)
            count(nxt[1])
            sent.append(nxt)
        plans.append((True, sent))
    ncover = neg[:]
    r.shuffle(ncover)
    nfirst = (ncover + [r.choice(neg) for _ in range(N_NEG)])[:N_NEG]
    for f, size in zip(nfirst, neg_sizes):
        sent = [f]
        while len(sent) < size:
            nxt = r.choice(neg)
            if nxt not in sent:
                sent.append(nxt)
        plans.append((False, sent))
    return plans


def check(rec):
    text, spans = rec["text"], rec["spans"]
    last = -1
    for s, e, ty in spans:
        assert 0 <= s < e <= len(text) and s >= last, rec
        v = text[s:e]
        assert v == v.strip() and v, rec
        if ty == "IBAN":
            assert iban_valid(v), v
        if ty == "CREDIT_CARD":
            assert luhn_ok(v), v
        last = e


def main():
    r = random.Random(SEED)
    makers = build_makers(r)
    pos, neg = all_templates()
    plans = plan_messages(pos, neg, r)
    records = []
    for is_pos, sent in plans:
        parts = [fill(t, makers, r) for _, t in sent]
        text, spans = join(parts, r)
        spans.sort()
        rec = {"text": text, "spans": spans, "template": "+".join(tid for tid, _ in sent)}
        check(rec)
        assert bool(spans) == is_pos, rec
        records.append(rec)
    r.shuffle(records)
    with open(OUT, "w", encoding="utf-8") as fh:
        for rec in records:
            fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
    return records


if __name__ == "__main__":
    recs = main()
    per = {ty: 0 for ty in TYPES}
    for rec in recs:
        for _, _, ty in rec["spans"]:
            per[ty] += 1
    print(
        "messages: %d (%d with spans, %d without)"
        % (len(recs), sum(1 for x in recs if x["spans"]), sum(1 for x in recs if not x["spans"]))
    )
    print("spans per type: " + ", ".join("%s %d" % kv for kv in per.items()))
