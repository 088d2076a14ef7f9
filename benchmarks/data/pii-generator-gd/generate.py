#!/usr/bin/env python3
"""Test-message generator for a personal-data finder.

Writes pii_generator_gd.jsonl next to this file: 600 chatbot / forum style
messages (480 with personal data, 120 without), each with character spans
[start, end, TYPE] and the id(s) of the template(s) it was built from.

Standard library only; seeded (77), so every run writes the same file.
All templates and value lists below are written for this generator.
"""

import json
import os
import random
import re
import unicodedata

SEED = 77
N_PII = 480
N_NONE = 120
N_PII_MULTI = 160  # PII messages made of 2-3 sentences
N_NONE_MULTI = 40  # no-PII messages made of 2-3 sentences
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pii_generator_gd.jsonl")


class Deck:
    """Draw items in shuffled order; reshuffle when exhausted (spreads values out)."""

    def __init__(self, rng, items):
        self.rng = rng
        self.items = list(items)
        self.pool = []

    def draw(self):
        if not self.pool:
            self.pool = list(self.items)
            self.rng.shuffle(self.pool)
        return self.pool.pop()


# ---------------------------------------------------------------------------
# Names: culture -> (female first names, male first names, surnames)
# A surname "A|B" has a male form A and a female form B.
# ---------------------------------------------------------------------------
NAMES = {
    "english": (
        "Emily Charlotte Amelia Sophie Lucy Hannah Grace Madison Ashley Kayla",
        "Oliver Harry George Jack Thomas Tyler Brandon Cody Ethan Liam",
        "Smith Turner Whitaker Hughes Bennett Fletcher Sullivan Carter Reynolds Brooks",
    ),
    "irish": (
        "Siobhán Aoife Niamh Caoimhe Gráinne",
        "Seán Pádraig Cian Oisín Ciarán",
        "O'Connor Murphy Ó_Briain Byrne Fitzgerald Kavanagh",
    ),
    "german": (
        "Lena Käthe Anneliese Mareike Hannelore Bärbel",
        "Jürgen Sören Lukas Jörg Günther Maximilian Matthias",
        "Müller Schröder Weiß Köhler Hoffmann Schäfer Krüger Böhm",
    ),
    "french": (
        "Zoé Hélène Chloé Gaëlle Amélie Maëlys Léa",
        "Étienne Loïc Mathéo François Benoît Jérôme Thibault",
        "Dubois Lefèvre Girard Moreau Fournier Rousseau Bérard Lemaître",
    ),
    "spanish": (
        "María Inés Lucía Sofía Begoña Nuria Ainhoa",
        "José Íñigo Álvaro Raúl Jesús Andrés Sergio",
        "García Núñez Fernández Ibáñez Gómez Muñoz Sánchez Ortega",
    ),
    "italian": (
        "Giulia Chiara Francesca Federica Lucrezia Beatrice",
        "Niccolò Alessandro Lorenzo Matteo Gianluca Tommaso",
        "Rossi Esposito Bianchi Colombo Ricci De_Luca Marchetti Fabbri",
    ),
    "polish": (
        "Małgorzata Agnieszka Zofia Katarzyna Joanna Bożena",
        "Łukasz Wojciech Paweł Bartłomiej Grzegorz Jędrzej",
        "Nowak Kowalski|Kowalska Wiśniewski|Wiśniewska Wójcik Kamiński|Kamińska "
        "Zieliński|Zielińska Dąbrowski|Dąbrowska",
    ),
    "czech": (
        "Lenka Kateřina Markéta Věra Tereza",
        "Jiří Tomáš Petr Zdeněk Radek Ondřej",
        "Novák|Nováková Dvořák|Dvořáková Svoboda|Svobodová Černý|Černá Procházka|Procházková Kučera|Kučerová",
    ),
    "swedish": (
        "Åsa Linnéa Märta Elsa Ingrid Saga",
        "Björn Oskar Gustav Sven Måns Anders",
        "Lindqvist Åberg Sjöberg Holmström Nyström Bergkvist",
    ),
    "norwegian": (
        "Ingvild Solveig Ragnhild Sigrid Tuva",
        "Øystein Håkon Eirik Torbjørn Ståle",
        "Johansen Løvås Haugen Bjørnstad Sæther Strøm",
    ),
    "finnish": (
        "Päivi Aino Sanna Tuula Iida Heli",
        "Jyrki Mikko Väinö Eero Jussi Teemu",
        "Virtanen Mäkinen Järvinen Heikkilä Kärkkäinen Lehtonen",
    ),
    "brazilian": (
        "Conceição Gabriela Luíza Fernanda Thaís Débora",
        "João Thiago Caio Leandro Sebastião Vinícius",
        "Silva Gonçalves Araújo Pereira Magalhães Assunção Rodrigues",
    ),
    "argentinian": (
        "Agustina Valentina Milagros Florencia Ludmila",
        "Facundo Santiago Nahuel Joaquín Ezequiel",
        "Gutiérrez Sosa Benítez Acuña Domínguez Ferreyra",
    ),
    "indian": (
        "Priya Ananya Deepika Sneha Lakshmi Aishwarya",
        "Arjun Aarav Rohan Vikram Karthik Siddharth",
        "Patel Sharma Iyer Reddy Banerjee Nair Chatterjee Deshpande",
    ),
    "japanese": (
        "Yui Sakura Aoi Yūko Haruka",
        "Haruto Sōta Ren Kenji Daichi Yūsuke",
        "Tanaka Satō Yamamoto Kobayashi Watanabe Itō Saitō",
    ),
    "chinese": (
        "Mei Lihua Xiaoling Jingyi Yuxin",
        "Wei Xiaoming Jun Zhiwei Haoran",
        "Zhang Chen Liu Wang Huang Zhou",
    ),
    "arabic": (
        "Fatima Layla Nour Amira Rania",
        "Youssef Omar Khalid Karim Tariq",
        "Haddad Al-Masri Khoury El-Sayed Mansour Nasser",
    ),
    "turkish": (
        "Çağla Gülşen Müge Elif Şeyma",
        "Ömer Şükrü Emre Burak Oğuz",
        "Yılmaz Öztürk Çelik Şahin Aydın Doğan",
    ),
    "nigerian": (
        "Ngozi Adaeze Folake Chiamaka Yetunde",
        "Chinedu Oluwaseun Emeka Tunde Ikenna",
        "Okafor Adeyemi Nwosu Okonkwo Balogun Eze",
    ),
    "vietnamese": (
        "Thảo Huệ Ngọc Linh",
        "Minh Quang Dũng Tuấn",
        "Nguyễn Trần Phạm Lê Võ",
    ),
    "greek": (
        "Eleni Katerina Despina Vasiliki",
        "Dimitris Giorgos Nikos Stavros",
        "Papadopoulos|Papadopoulou Nikolaidis|Nikolaidou Georgiou Karagiannis|Karagianni",
    ),
    "korean": (
        "Ji-woo Seo-yeon Min-ji",
        "Min-jun Do-hyun Sung-min",
        "Kim Park Choi Jung Kang",
    ),
    "hungarian": (
        "Zsófia Réka Ildikó",
        "Gergő Bálint Levente",
        "Nagy Szabó Kovács Tóth Horváth",
    ),
}

# Titles used before a surname: culture -> (male titles, female titles)
TITLES = {
    "default": (["Mr", "Mr.", "Dr"], ["Mrs", "Ms", "Miss", "Dr", "Mrs."]),
    "german": (["Herr"], ["Frau"]),
    "french": (["M.", "Monsieur"], ["Mme", "Madame"]),
    "spanish": (["Sr.", "don"], ["Sra.", "doña"]),
    "argentinian": (["Sr."], ["Sra."]),
    "italian": (["Sig.", "Signor"], ["Sig.ra", "Signora"]),
    "polish": (["Pan"], ["Pani"]),
    "czech": (["pan"], ["paní"]),
    "brazilian": (["Sr."], ["Sra.", "Dona"]),
}

# ---------------------------------------------------------------------------
# Addresses: per country a street list and a formatter (full, short).
# ---------------------------------------------------------------------------
STREETS = {
    "uk": [
        "Elm Grove",
        "Victoria Road",
        "Church Lane",
        "Mill Street",
        "Highfield Avenue",
        "Ashworth Close",
        "Kingsley Crescent",
        "Tanner's Row",
    ],
    "us": [
        "Maple Avenue",
        "Oak Street",
        "Cedar Lane",
        "Willow Drive",
        "Pine Ridge Road",
        "Lakeview Terrace",
        "Magnolia Court",
        "Hickory Hollow Lane",
    ],
    "de": [
        "Lindenstraße",
        "Schillerstraße",
        "Am Mühlbach",
        "Goethestraße",
        "Rosenweg",
        "Kastanienallee",
        "Bahnhofstraße",
        "Fröbelstraße",
    ],
    "fr": [
        "rue des Lilas",
        "avenue Jean Jaurès",
        "boulevard Voltaire",
        "impasse des Tilleuls",
        "rue du Général Leclerc",
        "allée des Châtaigniers",
        "rue de la Fontaine",
    ],
    "es": [
        "Calle Mayor",
        "Calle de la Reina",
        "Avenida de América",
        "Calle del Olivo",
        "Calle Sierpes",
        "Paseo de la Alameda",
        "Rambla de Catalunya",
    ],
    "it": [
        "Via Garibaldi",
        "Via Roma",
        "Corso Vittorio Emanuele II",
        "Via dei Mille",
        "Viale Monza",
        "Via Nazionale",
        "Via delle Ortensie",
    ],
    "pl": [
        "ul. Długa",
        "ul. Marszałkowska",
        "ul. Piotrkowska",
        "ul. Mickiewicza",
        "al. Jerozolimskie",
        "ul. Świętojańska",
        "ul. Źródlana",
    ],
    "cz": ["Vinohradská", "Na Příkopě", "Husova", "Palackého", "Masarykova", "Korunní", "Údolní"],
    "se": ["Storgatan", "Drottninggatan", "Kungsgatan", "Södra Vägen", "Linnégatan", "Björkvägen", "Ringvägen"],
    "no": ["Kirkeveien", "Thorvald Meyers gate", "Bygdøy allé", "Møllergata", "Storgata", "Kongens gate", "Fjellveien"],
    "fi": [
        "Mannerheimintie",
        "Hämeenkatu",
        "Aleksanterinkatu",
        "Kauppakatu",
        "Koivukuja",
        "Satakunnankatu",
        "Runeberginkatu",
    ],
    "br": [
        "Rua das Flores",
        "Rua Augusta",
        "Avenida Atlântica",
        "Rua da Consolação",
        "Rua Voluntários da Pátria",
        "Rua XV de Novembro",
        "Rua dos Ipês",
    ],
    "ar": [
        "Av. Corrientes",
        "Calle Florida",
        "Av. Santa Fe",
        "Calle Defensa",
        "Av. Rivadavia",
        "Calle Güemes",
        "Bv. Oroño",
    ],
    "in": ["MG Road", "Linking Road", "Park Street", "Anna Salai", "Residency Road", "FC Road", "Jubilee Hills Road"],
    "jp": ["Jingūmae", "Kōenji-kita", "Nishi-Shinjuku", "Tenjin", "Sakae", "Nakanoshima", "Ōdōri-nishi"],
    "au": [
        "Wattle Street",
        "Brunswick Street",
        "Banksia Crescent",
        "Jacaranda Avenue",
        "Kookaburra Close",
        "Eucalyptus Drive",
        "Bottlebrush Way",
    ],
    "nl": ["Keizersgracht", "Oudegracht", "Lange Voorhout", "Kerkstraat", "Molenweg"],
    "ie": ["Seaview Terrace", "Bóthar na Trá", "Castle Road", "Rathmines Park", "St. Brigid's Road"],
}

UK_TOWNS = [
    ("Leeds", "LS"),
    ("Manchester", "M"),
    ("Bristol", "BS"),
    ("Glasgow", "G"),
    ("Cardiff", "CF"),
    ("Norwich", "NR"),
    ("York", "YO"),
    ("Brighton", "BN"),
]
US_CITIES = [
    ("Columbus", "OH", "432"),
    ("Austin", "TX", "787"),
    ("Portland", "OR", "972"),
    ("Raleigh", "NC", "276"),
    ("Madison", "WI", "537"),
    ("Tucson", "AZ", "857"),
    ("Albany", "NY", "122"),
]
DE_TOWNS = [
    ("Berlin", "10"),
    ("München", "80"),
    ("Köln", "50"),
    ("Leipzig", "04"),
    ("Freiburg im Breisgau", "79"),
    ("Hamburg", "22"),
    ("Würzburg", "97"),
]
FR_TOWNS = [
    ("Lyon", ["69001", "69003", "69004", "69007"]),
    ("Toulouse", ["31000", "31200", "31400"]),
    ("Nantes", ["44000", "44100", "44300"]),
    ("Lille", ["59000", "59800"]),
    ("Bordeaux", ["33000", "33100", "33800"]),
    ("Rennes", ["35000", "35200", "35700"]),
]
ES_TOWNS = [
    ("Madrid", "28"),
    ("Sevilla", "41"),
    ("Valencia", "46"),
    ("Barcelona", "08"),
    ("Zaragoza", "50"),
    ("Málaga", "29"),
    ("A Coruña", "15"),
]
IT_TOWNS = [
    ("Milano", "MI", "201"),
    ("Torino", "TO", "101"),
    ("Bologna", "BO", "401"),
    ("Napoli", "NA", "801"),
    ("Firenze", "FI", "501"),
    ("Palermo", "PA", "901"),
]
PL_TOWNS = [("Warszawa", "0"), ("Kraków", "3"), ("Łódź", "9"), ("Gdańsk", "8"), ("Wrocław", "5"), ("Poznań", "6")]
CZ_TOWNS = [
    ("Praha 2", "120 00"),
    ("Praha 3", "130 00"),
    ("Brno", "602 00"),
    ("Ostrava", "702 00"),
    ("Plzeň", "301 00"),
    ("Olomouc", "779 00"),
    ("České Budějovice", "370 01"),
]
SE_TOWNS = [
    ("Göteborg", "41"),
    ("Stockholm", "11"),
    ("Malmö", "21"),
    ("Uppsala", "75"),
    ("Umeå", "90"),
    ("Västerås", "72"),
]
NO_TOWNS = [
    ("Oslo", "0"),
    ("Bergen", "50"),
    ("Trondheim", "70"),
    ("Tromsø", "90"),
    ("Stavanger", "40"),
    ("Ålesund", "60"),
]
FI_TOWNS = [
    ("Helsinki", "00"),
    ("Tampere", "33"),
    ("Turku", "20"),
    ("Oulu", "90"),
    ("Jyväskylä", "40"),
    ("Espoo", "02"),
]
BR_CITIES = [
    ("São Paulo", "SP", "Pinheiros", "05"),
    ("Rio de Janeiro", "RJ", "Botafogo", "22"),
    ("Curitiba", "PR", "Centro", "80"),
    ("Belo Horizonte", "MG", "Savassi", "30"),
    ("Porto Alegre", "RS", "Moinhos de Vento", "90"),
    ("Recife", "PE", "Boa Viagem", "51"),
]
AR_CITIES = [("CABA", "C"), ("Rosario", "S2000"), ("Córdoba", "X5000"), ("Mendoza", "M5500"), ("La Plata", "B1900")]
IN_CITIES = [
    ("Bengaluru", "560", ["Indiranagar", "Koramangala", "Jayanagar"]),
    ("Mumbai", "400", ["Bandra West", "Andheri East", "Dadar"]),
    ("Kolkata", "700", ["Salt Lake", "Ballygunge"]),
    ("Chennai", "600", ["Adyar", "T. Nagar"]),
    ("Hyderabad", "500", ["Banjara Hills", "Gachibowli"]),
    ("Pune", "411", ["Kothrud", "Shivajinagar"]),
]
IN_BUILDINGS = [
    "Sai Residency",
    "Green Park Apartments",
    "Lotus Towers",
    "Shanti Niketan",
    "Sunrise Enclave",
    "Gulmohar Heights",
]
JP_PLACES = {
    "Jingūmae": ("Shibuya-ku", "Tokyo", "150-0001"),
    "Kōenji-kita": ("Suginami-ku", "Tokyo", "166-0002"),
    "Nishi-Shinjuku": ("Shinjuku-ku", "Tokyo", "160-0023"),
    "Tenjin": ("Chūō-ku", "Fukuoka", "810-0001"),
    "Sakae": ("Naka-ku", "Nagoya", "460-0008"),
    "Nakanoshima": ("Kita-ku", "Osaka", "530-0005"),
    "Ōdōri-nishi": ("Chūō-ku", "Sapporo", "060-0042"),
}
AU_SUBURBS = [
    ("Fitzroy", "VIC", "3065"),
    ("Newtown", "NSW", "2042"),
    ("Paddington", "QLD", "4064"),
    ("Fremantle", "WA", "6160"),
    ("Glenelg", "SA", "5045"),
    ("Sandy Bay", "TAS", "7005"),
]
NL_TOWNS = [("Amsterdam", "10"), ("Utrecht", "35"), ("Den Haag", "25"), ("Groningen", "97"), ("Rotterdam", "30")]
IE_TOWNS = [
    ("Dún Laoghaire", "Dublin", "A96"),
    ("Salthill", "Galway", "H91"),
    ("Douglas", "Cork", "T12"),
    ("Ennis", "Clare", "V95"),
    ("Tralee", "Kerry", "V92"),
]

UK_PC_LETTERS = "ABDEFGHJLNPQRSTUWXYZ"
UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

# ---------------------------------------------------------------------------
# Health values (a private person's condition, symptom, medication, treatment)
# ---------------------------------------------------------------------------
CONDITIONS = [
    "type 2 diabetes",
    "type 1 diabetes",
    "asthma",
    "depression",
    "generalised anxiety disorder",
    "bipolar disorder",
    "ADHD",
    "epilepsy",
    "multiple sclerosis",
    "Crohn's disease",
    "ulcerative colitis",
    "coeliac disease",
    "rheumatoid arthritis",
    "osteoarthritis",
    "high blood pressure",
    "atrial fibrillation",
    "COPD",
    "endometriosis",
    "PCOS",
    "hypothyroidism",
    "Graves' disease",
    "psoriasis",
    "eczema",
    "long COVID",
    "fibromyalgia",
    "chronic fatigue syndrome",
    "breast cancer",
    "prostate cancer",
    "Hodgkin lymphoma",
    "early-onset dementia",
    "Parkinson's disease",
    "migraine with aura",
    "sleep apnoea",
    "PTSD",
    "OCD",
    "anorexia",
    "bulimia",
    "glaucoma",
    "tinnitus",
    "sciatica",
    "kidney stones",
    "gallstones",
    "stomach ulcers",
    "hepatitis C",
    "HIV",
    "lupus",
    "Lyme disease",
    "shingles",
    "pneumonia",
    "coronary artery disease",
    "postnatal depression",
    "alcohol use disorder",
    "chronic insomnia",
    "iron-deficiency anaemia",
    "severe peanut allergy",
    "Ménière's disease",
    "sickle cell anaemia",
    "cystic fibrosis",
    "scoliosis",
    "disc herniation",
    "heart failure",
    "skin cancer",
]
SYMPTOMS = [
    "chest pain",
    "night sweats",
    "shortness of breath",
    "heart palpitations",
    "blurred vision",
    "constant headaches",
    "dizzy spells",
    "numbness in my left arm",
    "joint pain",
    "lower back pain",
    "nausea",
    "panic attacks",
    "ringing in my ears",
    "stomach cramps",
    "hair loss",
    "unexplained weight loss",
    "blood in my stool",
    "swollen ankles",
    "a persistent cough",
    "hot flushes",
    "muscle spasms",
    "tremors in my hands",
    "memory lapses",
    "fainting spells",
    "severe fatigue",
    "heartburn",
    "hives",
]
MEDICATIONS = [
    "sertraline",
    "sertraline 50 mg",
    "metformin",
    "metformin 500 mg",
    "levothyroxine",
    "insulin",
    "lithium",
    "methylphenidate",
    "fluoxetine",
    "citalopram",
    "amlodipine",
    "ramipril",
    "atorvastatin",
    "warfarin",
    "apixaban",
    "prednisolone",
    "methotrexate",
    "adalimumab injections",
    "salbutamol",
    "omeprazole",
    "lamotrigine",
    "quetiapine",
    "propranolol",
    "gabapentin",
    "pregabalin",
    "tramadol",
    "codeine",
    "the contraceptive pill",
    "HRT patches",
    "antidepressants",
    "semaglutide",
    "buprenorphine",
    "mirtazapine",
    "venlafaxine 75 mg",
    "isotretinoin",
    "PrEP",
]
TREATMENTS = [
    "chemotherapy",
    "radiotherapy",
    "dialysis",
    "physiotherapy",
    "IVF",
    "hip replacement surgery",
    "knee surgery",
    "gallbladder surgery",
    "cognitive behavioural therapy",
    "EMDR therapy",
    "speech therapy",
    "alcohol rehab",
    "cataract surgery",
    "bariatric surgery",
    "immunotherapy",
    "electroconvulsive therapy",
    "root canal treatment",
    "hormone therapy",
    "stem cell transplantation",
    "cardiac rehab",
    "occupational therapy",
    "mastectomy surgery",
    "IV antibiotic treatment",
]

# ---------------------------------------------------------------------------
# Employers: invented organisations a private person works or studies at
# ---------------------------------------------------------------------------
COMPANIES = [
    "Brightwater Logistics",
    "Kestrel Analytics GmbH",
    "Harbourline Freight",
    "Nordlys Bakeri AS",
    "Greenhollow Care Homes",
    "Pinecrest Dental Clinic",
    "Silverbirch Insurance",
    "Maplestone Builders",
    "Lumenfield Software",
    "Rivermead Hospital Trust",
    "Bäckerei Sonnenschein",
    "Ferramenta Rossetti Srl",
    "Café Lindström",
    "Tecnologías Albora S.L.",
    "Zakład Mechaniczny Wierzba",
    "Pivovar Hradní Brána",
    "Suomen Kuituteos Oy",
    "Mercadinho Boa Vista",
    "Transportes Pampa Sur",
    "Shree Ganesh Textiles",
    "Hoshizora Robotics K.K.",
    "Coral Coast Surf Co.",
    "Redfern Plumbing",
    "Alder & Finch Solicitors",
    "Bluepeak Telecom",
    "Quillwork Publishing",
    "Ironvale Steelworks",
    "Sunnyside Veterinary Practice",
    "Copperleaf Accounting",
    "Northgate Leisure Centre",
    "Velora Cosmetics",
    "Atlasbridge Consulting",
    "Saltmarsh Fisheries",
    "Cloudberry Games",
    "Hearthwell Bakery",
    "Tidewater Energy",
    "Glenmoor Distillery",
    "Fjordvik Shipping AS",
    "Ostrander Medical Supplies",
    "Wildrose Florists",
    "Marlowe & Hart Architects",
    "Kobaltwerk AG",
    "Éditions Papillon Bleu",
    "Boulangerie Les Trois Épis",
    "Grupo Alcázar Hoteles",
    "Officine Brambilla SpA",
    "Stalowe Mosty Sp. z o.o.",
    "Vltava Data s.r.o.",
    "Älvdalen Trä AB",
    "Koivula Logistiikka Oy",
    "Construtora Ipê Amarelo",
    "Frigorífico Los Álamos",
    "Nilgiri Spice Exports",
    "Sakuragawa Foods",
    "Yarra Bend Cycles",
    "Thornbury Community Hospital",
    "St. Elwyn's Care Home",
    "Cobalt Crane Hire",
    "Pennywhistle Nursery",
    "Larkspur Call Centre",
    "Greyfell Security",
    "Meridian Wharf Hotel",
    "Willowmere District Council",
    "Quayside Print Works",
    "Halden & Voss Engineering",
]
SCHOOLS = [
    "the University of Eastbridge",
    "Kingsmere College",
    "Hochschule Talbach",
    "Université de Valmont",
    "Universidad de Castilnuevo",
    "Politecnico di Valdora",
    "Uniwersytet Nadwiślański",
    "Severská univerzita Hradiště",
    "Norrvik University College",
    "Fjellstad høgskole",
    "Lakemont Community College",
    "Faculdade Serra Azul",
    "Instituto Río Claro",
    "Deccan Valley Institute of Technology",
    "Shirakawa Gakuen University",
    "Blackwattle TAFE",
    "Ashgrove Sixth Form College",
    "Brookfell Academy",
    "Westmarch Grammar School",
    "Kaarnala University of Applied Sciences",
]

# ---------------------------------------------------------------------------
# Distractors (never spans)
# ---------------------------------------------------------------------------
CELEBS = [
    "Taylor Swift",
    "Lionel Messi",
    "Beyoncé",
    "Cristiano Ronaldo",
    "Rafael Nadal",
    "Shakira",
    "Serena Williams",
    "Keanu Reeves",
    "Rihanna",
    "Novak Djokovic",
    "Adele",
    "Kylian Mbappé",
    "Zlatan Ibrahimović",
    "Shah Rukh Khan",
    "Angela Merkel",
    "Barack Obama",
    "Greta Thunberg",
    "Elon Musk",
    "Dua Lipa",
    "Ed Sheeran",
    "Billie Eilish",
    "Haruki Murakami",
    "Pedro Pascal",
    "Zendaya",
    "Roger Federer",
]
FICTION = [
    "Harry Potter",
    "Hermione Granger",
    "Sherlock Holmes",
    "Elizabeth Bennet",
    "Frodo Baggins",
    "Pippi Longstocking",
    "Don Quixote",
    "Captain Nemo",
    "Homer Simpson",
    "Darth Vader",
    "Wednesday Addams",
    "Moomintroll",
    "Asterix",
    "Tintin",
    "Mafalda",
    "Totoro",
    "Atticus Finch",
    "Jay Gatsby",
    "Lara Croft",
    "Gandalf",
]
BIG_COMPANIES = [
    "Siemens",
    "Volkswagen",
    "Nestlé",
    "IKEA",
    "Spotify",
    "Nokia",
    "Samsung",
    "Toyota",
    "Tesla",
    "Unilever",
    "Airbus",
    "Zara",
    "Petrobras",
    "Infosys",
    "Škoda Auto",
    "Equinor",
    "Ryanair",
    "Tata Motors",
    "Mercado Libre",
    "Lufthansa",
]
PRODUCTS = [
    "PlayStation 5",
    "Kindle Paperwhite",
    "Dyson V15",
    "MacBook Air",
    "Nintendo Switch",
    "AirPods Pro",
    "Galaxy S24",
    "Steam Deck",
    "Thermomix",
    "iPad mini",
]
PRICES = [
    "£449",
    "$199.99",
    "€1,099",
    "€89",
    "$349",
    "£1,299",
    "€549",
    "$999",
    "£24.99",
    "€2,300",
    "1 499 zł",
    "R$ 3.999",
]
CS_NUMBERS = [
    "0800 107 5522",
    "1-800-555-0148",
    "0 800 91 22 33",
    "900 102 030",
    "0345 600 1234",
    "0800 33 11 00",
    "13 22 65",
    "020 24 00 11",
    "1800 425 3800",
    "0120-444-113",
]

# ---------------------------------------------------------------------------
# Templates. One per line. Slots:
#   REAL_NAME  {FIRST} {FIRSTF} {FIRSTM} {FULL} {FULLF} {FULLM} {TNAME} {TNAMEF} {TNAMEM}
#   ADDRESS    {ADDR}      EMAIL {EMAIL}   PHONE {PHONE}   IBAN {IBAN}   CREDIT_CARD {CARD}
#   HEALTH     {COND} {SYMP} {MED} {TREAT}
#   FINANCE    {DEBT} {SAV} {INC}
#   EMPLOYER   {EMP} {SCHOOL}
#   distractors (no span): {CELEB} {FICTION} {COMPANY} {PRODUCT} {PRICE} {STREETNAME} {CSNUM}
# ---------------------------------------------------------------------------
T_NAME = """
My name is {FULL} and I need help resetting my password.
hi, {FIRST} here, quick question about my order
Can you write a birthday message for my sister {FIRSTF}?
my neighbour {FULL} keeps parking in front of our garage, how do i complain politely?
Please draft a letter to {TNAME} explaining why I can't make the meeting.
I'm {FIRST}, 34, and I just moved to a new city.
help me write a wedding toast for {FIRSTF} and {FIRSTM}
My son {FIRSTM} refuses to do his homework, any tips?
Translate this into Spanish: 'Dear {TNAME}, thank you for your patience.'
who should i invite first, {FIRST} or {FIRST}? lol
My boss {FULL} keeps emailing me at midnight.
{FIRSTF} said I could borrow the car, but now she denies it.
Can you make a cover letter? Applicant: {FULL}.
ugh {FIRSTM} forgot my birthday again 🙄
Write a short poem for my grandmother {FULLF}, she turns 90 on Sunday.
The landlord, {TNAME}, hasn't fixed the heating for three weeks.
My ex {FIRST} keeps texting me, how do I block someone on WhatsApp?
Is it rude to ask {FIRST} to pay me back for the concert tickets?
signed up for the marathon with my cousin {FULL} 🏃
Our babysitter {FIRSTF} is leaving, how do I write her a reference?
Please address the invoice to {FULL}.
My daughter {FIRSTF} and her friend {FIRSTF} want a sleepover, what games can they play?
I need a eulogy for my uncle {FULLM}, he passed away last week.
{TNAME} from next door keeps complaining about our dog.
tbh i think {FIRST} is ghosting me
Write an apology to my roommate {FIRSTF} for eating her leftovers.
Booking is under the name {FULL}, two adults.
my dad {FULLM} wants to learn how to use a smartphone, where do we start?
Could you proofread this? 'Hi {FIRST}, great to meet you at the conference.'
Reservation for {TNAME}, table for four at 8pm.
me and {FIRST} broke up yesterday and idk what to do
What's a nice gift for my colleague {FULL} who is retiring?
My husband {FIRSTM} snores so loudly I can't sleep.
The parcel was signed for by {FULL}, but nobody by that name lives here.
pls help me write a text to {FIRSTF} saying sorry for missing her party
I'm writing a reference for my former student {FULL}.
My best friend {FULLF} is getting married in June and I'm the maid of honour.
hey it's {FIRST} again, the chatbot logged me out
My mother-in-law {TNAMEF} is staying with us for a month, help.
Make a chore chart for {FIRST}, {FIRST} and {FIRST}.
Does this sound ok? 'Dear {TNAME}, I'd like to request a meeting about my son's grades.'
my flatmate {FULL} never cleans the bathroom, how do i bring it up
Write a LinkedIn recommendation for {FULLF}, she was my team lead.
{FIRST} and I have been together 5 years, ideas for an anniversary trip?
I'm trying to find my old classmate {FULL}, we lost touch in 2009.
Please cc {FULL} on the reply.
my coach {TNAMEF} says i should rest more, is she right?
Congratulate {FIRSTF} on passing her driving test in a funny way.
The tenant in flat 3, {FULL}, hasn't answered my messages.
bday card for {FIRSTM} pls, he's turning 7 and loves dinosaurs
"""

T_ADDRESS = """
I live at {ADDR}, is that in the catchment area for the primary school?
Please send the replacement to {ADDR}.
my new address is {ADDR} btw, update ur contacts
Can you write a complaint to the council about the potholes outside {ADDR}?
Deliver to {ADDR}, leave it with the neighbour if no one's in.
We just bought a house at {ADDR}!! so excited
How long does it take to walk from {ADDR} to the train station?
Party's at mine, {ADDR}, from 8 pm.
My grandmother still lives at {ADDR} on her own, what home care options exist?
The letter was supposed to go to {ADDR} but it came back.
fill in this form for me: name {FULL}, address {ADDR}
There's been a leak from the flat above mine at {ADDR}.
What's the nearest pharmacy to {ADDR}?
i'm moving out of {ADDR} next month, how do i get my deposit back
The burglary happened at {ADDR} last night, how do I file an insurance claim?
Write a change-of-address notice: from {ADDR} to {ADDR}.
my kid's school wants proof that we live at {ADDR}, what counts?
Ship it to my home instead: {ADDR}.
Our landlord wants to raise the rent for {ADDR} by 15%, is that legal?
pick me up at {ADDR} at 6?
Can you find me a plumber who covers {ADDR}?
I grew up at {ADDR}, and the house is for sale now.
Registered address: {ADDR}.
the neighbours at {ADDR} throw parties every weekend
My billing address is {ADDR}, please correct the invoice.
Mum's place is {ADDR}, we'll do Christmas there this year.
Is {ADDR} in a flood risk zone? we're thinking of buying it
pls draft a letter to my insurer, the car was damaged outside my house at {ADDR}
I've been living at {ADDR} for six years and want to register to vote.
The return label shows {ADDR} as sender, that's my flat.
My parcel is stuck at the depot, the recipient is me at {ADDR}.
we're renting out the spare room at {ADDR}, write an ad?
Can you estimate the commute from {ADDR} to the city centre by bike?
i gave the courier {ADDR} but i moved last week
Send the wedding invitation for {FULL} to {ADDR}.
The smell of gas near our flat at {ADDR} is getting worse, who do I call?
Old address: {ADDR}. Please update my profile.
how far is my place, {ADDR}, from the nearest hospital?
Our Airbnb guests will find the keys in the mailbox at {ADDR}.
My brother's flat is at {ADDR}, can you suggest a housewarming gift?
Write a noise complaint letter; I live at {ADDR} and the bar next door is open till 3.
the tree in front of my house at {ADDR} fell on my car
For the school trip form: home address {ADDR}.
Meet me at my place, {ADDR}, not the café.
I'm selling my bike, collection from {ADDR} only.
The electricity bill for {ADDR} doubled, can you help me read it?
we need a babysitter at {ADDR} friday night
Please forward my mail from {ADDR} to my sister's.
Is parking allowed on the street outside my flat at {ADDR} overnight?
"""

T_EMAIL = """
my email is {EMAIL}, send the receipt there pls
Can you write a message to {EMAIL} asking for a refund?
You can reach me at {EMAIL}.
I think someone hacked {EMAIL}, what should I do?
Please add {EMAIL} to the mailing list.
Contact: {FULL}, {EMAIL}.
how do I change my login from {EMAIL} to a new one?
forgot the password for {EMAIL} again 😩
Send the draft to my personal address, {EMAIL}, not my work one.
Is {EMAIL} a professional enough email for job applications?
how do I set up parental controls for my daughter's account {EMAIL}?
I keep getting spam at {EMAIL}, how do I stop it?
Write an out-of-office reply; forward urgent stuff to {EMAIL}.
pls cc {EMAIL} and {EMAIL} on this
Reply to {EMAIL} saying I'll be there on Tuesday.
The confirmation was sent to {EMAIL} but I never got it.
my old uni email {EMAIL} is getting deactivated, how do i save everything
RSVP to {EMAIL} by Friday.
Email me the recipe: {EMAIL}
Can you check if {EMAIL} appears in a data breach?
I signed up with {EMAIL} by mistake, can I merge accounts?
For the club newsletter, my address is {EMAIL}.
Write a polite follow-up to {FIRST} at {EMAIL} about the job interview.
send the photos to {EMAIL} when u get a chance
My tutor's email is {EMAIL}, how should I start the message?
my mum's email is {EMAIL}, she keeps falling for phishing
Our family shared address is {EMAIL}.
Update my contact email to {EMAIL}, please.
my cousin's new email is {EMAIL}, is it safe to open a zip file she sent?
Please confirm the booking at {EMAIL}.
Hi, I registered as {EMAIL} but the verification link expired.
write a formal email to {TNAME} ({EMAIL}) requesting an extension
my gf's email is {EMAIL}, help me send her a surprise e-card
Can I add {EMAIL} as a recovery address?
The invoice should go to {EMAIL}, not to the office.
lost access to {EMAIL}, no phone linked, help!!
Can you format a signature with my email {EMAIL}?
Drop me a line at {EMAIL} if anything changes.
Unsubscribe {EMAIL} from all marketing, please.
The landlord's email is {EMAIL}, write to him about the mould.
he gave me {EMAIL} at the party, should i email first or wait?
Put {EMAIL} as the contact on the lost-dog poster.
how do I forward all mail from {EMAIL} to my new account?
My Apple ID is {EMAIL} and it's locked.
Please send the tenancy agreement to {EMAIL} for signing.
my teacher said to send homework to {EMAIL}, is that ok to share w classmates
"""

T_PHONE = """
Call me on {PHONE} after 5.
my number is {PHONE}, text me when ur outside
Can you write an SMS to {PHONE} saying I'm running late?
I keep getting missed calls on {PHONE} from unknown numbers, how do I block them?
Emergency contact: {FULL}, {PHONE}.
The babysitter's number is {PHONE}, save it for me.
my new mobile is {PHONE}, old one's gone
Please ring me on {PHONE} to confirm the appointment.
whatsapp me at {PHONE}
Is {PHONE} a landline or a mobile? it's my home number
My grandma's number is {PHONE}, she's hard of hearing so speak slowly.
Put {PHONE} on the lost-cat posters.
How do I port {PHONE} to a new carrier?
the plumber said to call him on {PHONE}
Reach me at {PHONE} or {EMAIL}.
Text {PHONE} for the wifi password lol
For delivery issues, my contact number is {PHONE}.
My daughter lost her phone, the number was {PHONE}, how do we track it?
Call {FIRST} at {PHONE} if I don't pick up.
Update my phone number to {PHONE}.
Someone is using my number {PHONE} to sign up for things in my name.
if ur lost just call {PHONE}
Write a voicemail greeting that mentions my number, {PHONE}.
I got a scam text on {PHONE}, should I report it?
My mum changed her number to {PHONE}.
Can I receive international calls on {PHONE} while abroad?
Please call back on {PHONE}, I'm not at my desk.
the school has {PHONE} as my contact, i need to change it
Two-factor codes go to {PHONE} and I lost that SIM.
Here's my cell: {PHONE}.
My flatmate's number is {PHONE} in case you can't reach me.
Is it safe to post {PHONE} in a Facebook group for a sale?
Pls send the location to {PHONE}
For the carpool, call {FULL} on {PHONE}.
my dad's mobile is {PHONE}, he doesn't do email
Best number to reach me during the day is {PHONE}.
Can you rewrite my number {PHONE} in international format for my CV?
I missed a call from {PHONE}, it's my cousin's new number I think.
The dog walker's number is {PHONE}.
sms me on {PHONE} when the parcel arrives
My son's number is {PHONE}, how can I set screen time limits on it?
Add {PHONE} to my contacts as 'Granny'.
Call me: {PHONE}.
Her number is {PHONE}, should I text her first?
Write a reminder for {FIRST} to call me back on {PHONE}.
The landlady gave me {PHONE} for emergencies only.
"""

T_IBAN = """
My IBAN is {IBAN}, can you check if it's valid?
Please transfer the deposit to my account {IBAN}.
send the money to {IBAN} pls, account name {FULL}
Which country is my account {IBAN} from?
My refund should go to {IBAN}.
Write a payment request to my tenant: rent to {IBAN} by the 1st.
i put {IBAN} on the form but the bank says it's wrong
My salary is paid into {IBAN}.
Can you format my IBAN {IBAN} into groups of four?
Beneficiary: {FULL}, IBAN {IBAN}.
my landlord wants the rent paid to his account {IBAN}, is that normal?
I need to change my direct debit to {IBAN}.
Pay the babysitter to {IBAN}, she prefers bank transfer.
Here are my bank details: {IBAN}.
Could someone steal money if they know my IBAN {IBAN}?
Write an email to HR with my new IBAN, {IBAN}.
split the bill and send ur share to {IBAN} 💸
My pension should be credited to {IBAN}.
For the crowdfunding for my sister, use her account {IBAN}.
I made a typo: my IBAN is {IBAN}, not the one I sent before.
Do I need a BIC for my account {IBAN}?
My account {IBAN} was frozen, what can I do?
the club fees go to {IBAN}, treasurer is {FULL}
Please set up a standing order from {IBAN}.
Translate into French: 'Please pay to my account {IBAN}.'
wedding gift money can go to {IBAN}, no pressure!
Is it safe to share {IBAN} in a group chat?
Deposit refund pls to {IBAN}, thanks.
My old account {IBAN} is closed, please use the new one.
Child benefit is paid to {IBAN}.
Put my IBAN {IBAN} on the invoice template.
How long does a SEPA transfer to my account {IBAN} take?
my mom's IBAN is {IBAN}, she's paying for the trip
Reimbursement account: {IBAN}.
The seller gave me his IBAN {IBAN}, is that suspicious?
Direct debit mandate for {IBAN}, signed by {FULL}.
can u check this iban {IBAN} i think a digit is wrong
My tax refund goes to {IBAN}.
Pay my share of the holiday house to {IBAN}.
My joint account with my husband is {IBAN}.
For the rent of my spare room, the account is {IBAN}.
Write a note to the school office: lunch money refunds to {IBAN}.
The insurance payout for my car should be sent to {IBAN}.
I'd like to add my sister's account {IBAN} as a payee.
Scholarship payments go to my account {IBAN}.
Fill in: account holder {FULL}, IBAN {IBAN}, reason: deposit.
"""

T_CARD = """
my card number is {CARD}, why was it declined?
Is my card {CARD} a Visa or a Mastercard?
I think someone cloned my card {CARD}.
Please charge {CARD} for the order.
card {CARD} exp 08/27, can you book the room?
I lost my credit card, the number was {CARD}, how do I cancel it?
There's a charge on my card {CARD} I don't recognise.
Use my card {CARD} for the subscription.
Can you check if my card {CARD} passes the Luhn check?
my dad's card {CARD} got blocked while he was abroad
Update my payment method to {CARD}.
The hotel wants my card {CARD} on file, is that safe?
I typed {CARD} on a dodgy website, what now?
Cardholder: {FULL}, number {CARD}.
pls pay with {CARD}, cvv's on the back
The refund to my card {CARD} hasn't arrived.
My wife's card {CARD} was charged twice.
How do I dispute a transaction on my card {CARD}?
Remove {CARD} from my account please.
i saved {CARD} in my browser, is that dumb?
My old card {CARD} expired, here's the new one: {CARD}.
Book the flights on my card {CARD}.
Fraud alert on {CARD}, what should I say to the bank?
Put the deposit on {CARD}, I'll pay the rest in cash.
my son used my card {CARD} to buy game credits without asking
Can I use my card {CARD} abroad without fees?
Write a letter to the bank about unauthorised payments on {CARD}.
Is it safe to send my card number {CARD} over WhatsApp?
The gym keeps charging {CARD} even after I cancelled.
Full card number for the form: {CARD}.
Please pay the invoice with my card {CARD}.
I gave {CARD} to a caller claiming to be my bank.
My virtual card {CARD} is for online stuff only.
my business card is separate, personal one is {CARD}
The online shop stored my card {CARD}, how do I delete it?
Does my card {CARD} include travel insurance?
The pre-authorisation on {CARD} hasn't been released.
use {CARD} for the groceries delivery thx
Grandma read me her card number over the phone, {CARD}, was that ok?
Charge the taxi to my card {CARD}.
The card {CARD} is in {FULL}'s name.
I need to report my card {CARD} as stolen.
Auto-pay for my phone bill is set to {CARD}.
Can you fill my checkout form: card {CARD}, name {FULL}?
Apple Pay won't accept my card {CARD}, why?
paid the concert tickets with {CARD} but no email came
"""

T_HEALTH = """
I was diagnosed with {COND} last month and I'm scared.
my doctor put me on {MED}, is it ok to drink alcohol?
I've had {SYMP} for two weeks now, should I worry?
Starting {TREAT} next week, what should I pack for the hospital?
my son has {COND}, how do I explain it to his teacher?
Can you help me plan meals? I have {COND}.
I'm on {MED} and wondering if I can still drive.
tbh i keep getting {SYMP} at night and it's scaring me
My wife just finished {TREAT} and wants to go back to work.
write a note for work: I have {COND} and need a few days off
I take {MED} every morning, can I have coffee with it?
my mum is going through {TREAT}, what meals can I bring her?
I've been struggling with {COND} since my divorce.
i keep getting {SYMP} after eating, what could it be
The GP prescribed {MED} for my {COND}.
My dad has {COND} and keeps forgetting his pills.
Can I fly three weeks after {TREAT}?
since starting {MED} i've been in a better mood tbh
I need to tell my manager I have {COND}, how?
My daughter was born with {COND}.
After the car accident I've had {SYMP} every day.
Is it ok to go to the gym while I'm on {MED}?
My partner has {COND} and I don't know how to support him.
Help me write to my landlord: I have {COND} and need a ground-floor flat.
had {TREAT} yesterday, can i shower today lol
I'm 32 and just found out I have {COND}.
my grandpa's {COND} is getting worse, care home or home care?
What foods should I avoid? I have {COND}.
I ran out of {MED}, can I skip a few days?
The school nurse says my son needs {TREAT}.
My sister was hospitalised with {COND}.
I've had {SYMP} and {SYMP} since Monday.
pls explain my blood test, i have {COND}
Can you write a message to my team: I'm off for {TREAT} until the 20th.
I'm on {MED} and {MED}, is that combo safe?
i think my {COND} is flaring up again
My boyfriend has {COND} and won't see a doctor.
The specialist recommended {TREAT} for me, how long is recovery?
I've been on {MED} for three years.
My colleague told everyone I have {COND}, is that allowed?
Woke up with {SYMP} again, third time this week.
Will my insurance cover the {TREAT} I'm having in May?
My toddler has {COND}, what should daycare know?
I just started {MED}, how long until it works?
My mother has {COND} and lives alone.
Write a poem about my journey through {TREAT}.
can't sleep bc of {SYMP} 😩
Need a gym plan that works with my {COND}.
My husband started {TREAT} after his {COND} diagnosis.
My doctor switched me from {MED} to {MED}.
"""

T_FINANCE = """
I have {DEBT} and I don't know where to start.
i'm on {INC}, can i afford a flat in the city?
We've got {SAV}, should we invest it or pay off the car?
Help me write to my landlord: I have {DEBT} and need a payment plan.
My husband hid {DEBT} from me for two years.
With {INC} and {DEBT}, how long until I'm debt-free?
is {SAV} enough for an emergency fund for me and my kids
I just found out my dad has {DEBT}.
My offer letter says {INC}, is that fair for a junior developer?
I've managed to put away {SAV} this year!
the bank wants me to pay off {DEBT} by march
Can you make me a budget? I'm on {INC} and rent is half of it.
My sister has {DEBT} and asked me for help.
we have {SAV} and want to buy a house in 2 years
I'm behind on payments and now have {DEBT}.
I have {SAV} and I'm 58, can I retire at 60?
Should I use {SAV} to clear {DEBT}?
my gf makes {INC} and i make less, how do we split rent
The debt collector says I have {DEBT}, what are my rights?
Write a hardship letter: I have {DEBT} and lost my job.
I'm a nurse on {INC}, is that below average?
Got my first job, paying {INC}!
My parents helped me build up {SAV}.
we're drowning in {DEBT}, help
I have {SAV} sitting around doing nothing.
Is {INC} enough for me to live on in Munich?
My brother borrowed in my name and now I have {DEBT}.
Can you explain consolidation? I've got {DEBT} and {DEBT}.
I just got a raise to {INC}.
i have {SAV} and want to start investing, where do i begin
the agency says i have {DEBT} but i paid every month
Help me negotiate: they offered me {INC} and I want more.
Between us we have {SAV}, is that enough for a deposit?
I'm 24 with {DEBT}, is that bad?
my mum has {DEBT} and the interest keeps growing
Write a budget for me, I'm on {INC}.
We've built up {SAV} for the wedding.
Divorce settlement: he keeps {SAV}, I keep the house, fair?
is it normal to have {DEBT} at 30
My new job pays {INC}, the old one paid much less.
I've been hiding {DEBT} from my partner.
down to {SAV} until payday 😬
I have {SAV}, is it smart to leave it untouched?
Student here, {DEBT} already, what now?
My flatmate earns {INC} and won't pay more rent.
I have {SAV} and {DEBT}, which first?
How do I tell my partner I have {DEBT}?
Pls help me with my tax return: {INC}, no other income.
"""

T_EMPLOYER = """
I work at {EMP} and my manager is impossible.
just got a job offer from {EMP}!!
Can you help me write my resignation letter to {EMP}?
I'm a second-year student at {SCHOOL}.
my husband works for {EMP}, night shifts
I've been at {EMP} for 6 years and never got a raise.
Write a LinkedIn summary for me: software tester at {EMP}.
I study nursing at {SCHOOL} and work part-time at {EMP}.
My employer, {EMP}, doesn't pay overtime, is that legal?
i got fired from {EMP} today
My daughter just started at {SCHOOL}, what should she pack?
I'm a cleaner at {EMP} and my contract ends in May.
How do I ask HR at {EMP} for parental leave?
my sister teaches at {SCHOOL}
I'm an intern at {EMP}, can they make me work weekends?
Write an email to my team at {EMP} announcing my promotion.
I dropped out of {SCHOOL} in second year.
my dad drives trucks for {EMP}
We both work at {EMP} and started dating, do we have to tell HR?
My boss at {EMP} wants me to lie to clients.
Did my PhD at {SCHOOL}, now applying for jobs.
Starting at {EMP} on Monday, any first-day tips?
my mum has worked at {EMP} for 25 years and is retiring
I'm in accounts at {EMP} and they keep cutting my hours.
Can you review my cover letter? I currently work at {EMP}.
My son got into {SCHOOL}!!
My employer {EMP} reads my work emails, is that allowed?
the canteen at my work, {EMP}, is awful lol
I commute 2 hours to {EMP} every day.
Write a farewell message to my colleagues at {EMP}.
i'm doing my masters at {SCHOOL}, part-time
My wife got transferred by {EMP} to another city.
Applying internally at {EMP}, how do I stand out?
They're laying people off at {EMP} and I'm worried about my job.
Our union rep at {EMP} won't call me back.
My roommate works at {EMP} and always brings home samples.
I tutor maths at {SCHOOL} in the evenings.
my contract at {EMP} ends in june, then what
my bf just quit {EMP} without another job lined up
Exchange semester at {SCHOOL} next year, any tips?
I've worked at {EMP} and {EMP}, which should go first on my CV?
{EMP} still hasn't paid my last wages.
My brother is an apprentice at {EMP}.
I'm on the night shift at {EMP} this week.
Reference request: I worked at {EMP} from 2019 to 2023.
my teacher at {SCHOOL} gave me a bad grade unfairly
Write a thank-you note to my manager at {EMP}.
Graduated from {SCHOOL} last summer, still job hunting.
"""

T_NONE = """
Did you see {CELEB}'s interview last night?
what do u think of {CELEB}'s new album
{COMPANY} announced it will cut 2,000 jobs next year.
Is it true that {COMPANY} is buying a smaller rival?
Flu season is starting, are vaccines recommended for adults over 65?
How much sleep does an average adult need?
The new {PRODUCT} costs {PRICE}, is it worth it?
turn left onto {STREETNAME} and the bakery is on your right
Who would win in a fight, {FICTION} or {FICTION}?
For billing questions, call {COMPANY} customer service on {CSNUM}.
Write a short essay on {CELEB}'s early career.
What are the common signs of vitamin D deficiency?
Is {STREETNAME} closed for the marathon this Sunday?
{PRODUCT} dropped to {PRICE} in the sale lol
explain why {COMPANY}'s shares fell today
Summarise the story of {FICTION} in three sentences.
How many steps a day is considered healthy?
Is {CELEB} playing in the final this weekend?
The café on {STREETNAME} does the best croissants in town.
{COMPANY}'s helpline {CSNUM} is open 8am to 8pm.
What is the difference between a cold and the flu?
Recommend a laptop under {PRICE}.
my cat knocked over a plant again lol
Can you explain how compound interest works?
Write a haiku about autumn rain.
Who played {FICTION} in the first film?
How do I get from {STREETNAME} to the old town without a car?
Is the {PRODUCT} at {PRICE} a good deal or should I wait?
{CELEB} just announced a world tour!!
Give me a 20-minute beginner yoga routine.
Why do hospitals have such long waiting lists in winter?
What's the average rent in big European cities?
{COMPANY} opened a new factory near the coast.
Parking on {STREETNAME} is a nightmare during rush hour.
Draw up a study plan for learning Spanish in 3 months.
Was {FICTION} based on a real person?
{CELEB} was spotted at a café in Lisbon, apparently.
How much water should you drink on a hot day?
Is intermittent fasting backed by research?
To cancel a subscription, ring {COMPANY} on {CSNUM}.
{PRODUCT}: {PRICE} at most shops this week.
What time does the market on {STREETNAME} open on Saturdays?
ok thx, that helped a lot!
Can you recommend a good sci-fi series?
Translate 'good morning' into Finnish.
{CELEB} won an award last night, thoughts?
How do vaccines train the immune system?
what's a good name for a goldfish
Is {COMPANY} hiring graduates this year?
The bus goes down {STREETNAME} and stops near the museum.
Why is {FICTION} so popular with kids?
How much does a pint cost in London these days, like £7?
Tell me a joke about accountants.
The {COMPANY} app keeps crashing after the update, anyone else?
Explain inflation like I'm five.
{COMPANY} reported record profits this quarter, according to the news.
Which is healthier, brown rice or white rice?
"""

SLOT_TYPE = {
    "FIRST": "REAL_NAME",
    "FIRSTF": "REAL_NAME",
    "FIRSTM": "REAL_NAME",
    "FULL": "REAL_NAME",
    "FULLF": "REAL_NAME",
    "FULLM": "REAL_NAME",
    "TNAME": "REAL_NAME",
    "TNAMEF": "REAL_NAME",
    "TNAMEM": "REAL_NAME",
    "ADDR": "ADDRESS",
    "EMAIL": "EMAIL",
    "PHONE": "PHONE",
    "IBAN": "IBAN",
    "CARD": "CREDIT_CARD",
    "COND": "HEALTH",
    "SYMP": "HEALTH",
    "MED": "HEALTH",
    "TREAT": "HEALTH",
    "DEBT": "FINANCE",
    "SAV": "FINANCE",
    "INC": "FINANCE",
    "EMP": "EMPLOYER",
    "SCHOOL": "EMPLOYER",
}
DISTRACTOR_SLOTS = {"CELEB", "FICTION", "COMPANY", "PRODUCT", "PRICE", "STREETNAME", "CSNUM"}
SLOT_RE = re.compile(r"\{([A-Z]+)\}")


def load_templates():
    """Give every template line an id t001, t002, ... (PII blocks first, then no-PII)."""
    blocks = [T_NAME, T_ADDRESS, T_EMAIL, T_PHONE, T_IBAN, T_CARD, T_HEALTH, T_FINANCE, T_EMPLOYER]
    pii, none = [], []
    n = 0
    for block in blocks + [T_NONE]:
        for line in block.strip().splitlines():
            line = line.strip()
            if not line:
                continue
            n += 1
            slots = SLOT_RE.findall(line)
            for s in slots:
                assert s in SLOT_TYPE or s in DISTRACTOR_SLOTS, (s, line)
            tpl = {"id": "t%03d" % n, "text": line, "types": sorted({SLOT_TYPE[s] for s in slots if s in SLOT_TYPE})}
            if block is T_NONE:
                assert not tpl["types"], line
                none.append(tpl)
            else:
                assert tpl["types"], line
                pii.append(tpl)
    return pii, none


# ---------------------------------------------------------------------------
# Value generators
# ---------------------------------------------------------------------------
ASCII_MAP = {
    "ł": "l",
    "Ł": "L",
    "ø": "o",
    "Ø": "O",
    "æ": "ae",
    "Æ": "Ae",
    "ß": "ss",
    "đ": "d",
    "Đ": "D",
    "ı": "i",
    "œ": "oe",
    "þ": "th",
}


def asciify(s):
    s = "".join(ASCII_MAP.get(c, c) for c in s)
    s = unicodedata.normalize("NFKD", s)
    s = "".join(c for c in s if not unicodedata.combining(c))
    return re.sub(r"[^A-Za-z0-9]", "", s).lower()


def group(num_str, sep, size=3):
    out = []
    while len(num_str) > size:
        out.insert(0, num_str[-size:])
        num_str = num_str[:-size]
    out.insert(0, num_str)
    return sep.join(out)


def indian_group(num_str):
    if len(num_str) <= 3:
        return num_str
    head, tail = num_str[:-3], num_str[-3:]
    parts = []
    while len(head) > 2:
        parts.insert(0, head[-2:])
        head = head[:-2]
    if head:
        parts.insert(0, head)
    return ",".join(parts + [tail])


# currency: (prefix, suffix, thousands sep, decimal sep, factor, prefix-style, cents allowed)
CURRENCIES = {
    "GBP": ("£", "", ",", ".", 0.85, True, True),
    "USD": ("$", "", ",", ".", 1.1, True, True),
    "EUR": ("€", "", ",", ".", 1.0, True, True),
    "EUR_DE": ("", " €", ".", ",", 1.0, False, True),
    "EUR_FR": ("", " €", " ", ",", 1.0, False, True),
    "PLN": ("", " zł", " ", ",", 4.3, False, True),
    "SEK": ("", " kr", " ", ",", 11.0, False, False),
    "NOK": ("", " kr", " ", ",", 11.5, False, False),
    "CZK": ("", " Kč", " ", ",", 25.0, False, False),
    "BRL": ("R$ ", "", ".", ",", 5.5, True, True),
    "INR": ("₹", "", "IN", ".", 90.0, True, False),
    "JPY": ("¥", "", ",", ".", 160.0, True, False),
    "AUD": ("A$", "", ",", ".", 1.65, True, True),
    "CHF": ("CHF ", "", "'", ".", 0.95, True, True),
}

AMOUNT_RANGES = {
    "hourly": (9, 48),
    "weekly": (260, 1300),
    "monthly": (950, 6500),
    "yearly": (18000, 95000),
    "small": (150, 4200),
    "mid": (1500, 36000),
    "big": (8000, 90000),
    "huge": (90000, 650000),
    "sav": (300, 85000),
    "bal": (5, 6000),
}

DEBT_KINDS = [
    ("{a} of credit card debt", "mid"),
    ("{a} in credit card debt", "mid"),
    ("{a} in student loans", "big"),
    ("a {a} student loan", "big"),
    ("a {a} personal loan", "mid"),
    ("{a} in rent arrears", "small"),
    ("{a} of rent arrears", "small"),
    ("an overdraft of {a}", "small"),
    ("a {a} car loan", "mid"),
    ("a {a} mortgage", "huge"),
    ("{a} of payday loan debt", "small"),
    ("{a} in council tax arrears", "small"),
    ("{a} in back taxes", "mid"),
    ("{a} of buy-now-pay-later debt", "small"),
    ("{a} of unpaid energy bills", "small"),
    ("{a} owed to a debt collector", "mid"),
]
SAV_KINDS = [
    ("{a} in savings", "sav"),
    ("{a} in a savings account", "sav"),
    ("a balance of {a}", "bal"),
    ("{a} in a current account", "bal"),
    ("{a} in a brokerage account", "sav"),
    ("{a} in a pension pot", "big"),
    ("{a} in a fixed-term deposit", "sav"),
    ("{a} in index funds", "sav"),
    ("{a} in an emergency fund", "sav"),
    ("savings of {a}", "sav"),
]
INC_KINDS = [
    ("a salary of {a}", "yearly"),
    ("{a} a year", "yearly"),
    ("{a} a month after tax", "monthly"),
    ("{a} an hour", "hourly"),
    ("a gross salary of {a}", "yearly"),
    ("{a} net per month", "monthly"),
    ("{a} a week", "weekly"),
    ("{a} a year before tax", "yearly"),
]


def luhn_digit(payload):
    total = 0
    for i, ch in enumerate(reversed(payload)):
        d = int(ch)
        if i % 2 == 0:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return str((10 - total % 10) % 10)


IBAN_SPECS = {  # country: BBAN pattern as (kind, length) pieces; n digits, a letters
    "DE": [("n", 8), ("n", 10)],
    "GB": [("a", 4), ("n", 6), ("n", 8)],
    "FR": [("n", 5), ("n", 5), ("n", 11), ("n", 2)],
    "ES": [("n", 4), ("n", 4), ("n", 2), ("n", 10)],
    "IT": [("a", 1), ("n", 5), ("n", 5), ("n", 12)],
    "NL": [("a", 4), ("n", 10)],
    "PL": [("n", 8), ("n", 16)],
    "CZ": [("n", 4), ("n", 6), ("n", 10)],
    "SE": [("n", 3), ("n", 16), ("n", 1)],
    "NO": [("n", 4), ("n", 6), ("n", 1)],
    "FI": [("n", 3), ("n", 11)],
    "AT": [("n", 5), ("n", 11)],
    "BE": [("n", 3), ("n", 7), ("n", 2)],
    "PT": [("n", 4), ("n", 4), ("n", 11), ("n", 2)],
    "IE": [("a", 4), ("n", 6), ("n", 8)],
    "CH": [("n", 5), ("n", 12)],
}
IBAN_LENGTHS = {
    "DE": 22,
    "GB": 22,
    "FR": 27,
    "ES": 24,
    "IT": 27,
    "NL": 18,
    "PL": 28,
    "CZ": 24,
    "SE": 24,
    "NO": 15,
    "FI": 18,
    "AT": 20,
    "BE": 16,
    "PT": 25,
    "IE": 22,
    "CH": 21,
}
GB_BANKS = ["NWBK", "BARC", "LOYD", "MIDL", "HBUK", "MONZ"]
IE_BANKS = ["AIBK", "BOFI", "IPBS"]
NL_BANKS = ["ABNA", "INGB", "RABO", "TRIO", "SNSB"]


def iban_check(country, bban):
    rearranged = bban + country + "00"
    numeric = "".join(str(int(c, 36)) for c in rearranged)
    return "%02d" % (98 - int(numeric) % 97)


EMAIL_DOMAINS = {
    "english": ["gmail.com", "outlook.com", "yahoo.com", "btinternet.com", "icloud.com"],
    "irish": ["eircom.net", "gmail.com"],
    "german": ["web.de", "gmx.de", "t-online.de"],
    "french": ["orange.fr", "free.fr", "laposte.net"],
    "spanish": ["telefonica.net", "gmail.com"],
    "italian": ["libero.it", "virgilio.it"],
    "polish": ["wp.pl", "o2.pl", "interia.pl"],
    "czech": ["seznam.cz", "email.cz"],
    "swedish": ["telia.com", "hotmail.se"],
    "norwegian": ["online.no", "hotmail.no"],
    "finnish": ["kolumbus.fi", "gmail.com"],
    "brazilian": ["uol.com.br", "bol.com.br"],
    "argentinian": ["yahoo.com.ar", "fibertel.com.ar"],
    "indian": ["rediffmail.com", "gmail.com"],
    "japanese": ["yahoo.co.jp", "docomo.ne.jp"],
    "chinese": ["qq.com", "163.com"],
    "arabic": ["hotmail.com", "gmail.com"],
    "turkish": ["hotmail.com.tr", "gmail.com"],
    "nigerian": ["yahoo.com", "gmail.com"],
    "vietnamese": ["gmail.com", "yahoo.com.vn"],
    "greek": ["otenet.gr", "gmail.com"],
    "korean": ["naver.com", "daum.net"],
    "hungarian": ["freemail.hu", "citromail.hu"],
}
GENERIC_DOMAINS = ["gmail.com", "outlook.com", "proton.me", "icloud.com", "hotmail.com", "yahoo.com", "mail.com"]


class Gen:
    def __init__(self, rng):
        self.rng = rng
        r = rng
        self.cultures = Deck(r, list(NAMES))
        self.first = {}
        self.last = {}
        for c, (f, m, s) in NAMES.items():
            self.first[(c, "f")] = Deck(r, [x.replace("_", " ") for x in f.split()])
            self.first[(c, "m")] = Deck(r, [x.replace("_", " ") for x in m.split()])
            self.last[c] = Deck(r, [x.replace("_", " ") for x in s.split()])
        self.countries = Deck(r, list(STREETS))
        self.streets = {c: Deck(r, s) for c, s in STREETS.items()}
        self.all_streets = Deck(r, [s for c in STREETS for s in STREETS[c]])
        self.cond = Deck(r, CONDITIONS)
        self.symp = Deck(r, SYMPTOMS)
        self.med = Deck(r, MEDICATIONS)
        self.treat = Deck(r, TREATMENTS)
        self.emp = Deck(r, COMPANIES)
        self.school = Deck(r, SCHOOLS)
        self.debt = Deck(r, DEBT_KINDS)
        self.sav = Deck(r, SAV_KINDS)
        self.inc = Deck(r, INC_KINDS)
        self.currencies = Deck(r, list(CURRENCIES))
        self.iban_countries = Deck(r, list(IBAN_SPECS))
        self.card_kinds = Deck(r, ["visa", "visa", "mc", "mc2", "amex", "discover"])
        self.phone_countries = Deck(
            r, ["uk", "us", "de", "fr", "es", "it", "pl", "se", "no", "fi", "br", "ar", "in", "au", "jp", "cz", "nl"]
        )
        self.celebs = Deck(r, CELEBS)
        self.fiction = Deck(r, FICTION)
        self.companies = Deck(r, BIG_COMPANIES)
        self.products = Deck(r, PRODUCTS)
        self.prices = Deck(r, PRICES)
        self.csnums = Deck(r, CS_NUMBERS)
        self.person = None

    def d(self, n):
        return "".join(self.rng.choice("0123456789") for _ in range(n))

    # -- names -------------------------------------------------------------
    def new_person(self, gender=None):
        r = self.rng
        c = self.cultures.draw()
        g = gender or r.choice("fm")
        first = self.first[(c, g)].draw()
        last = self.last[c].draw()
        if "|" in last:
            m, f = last.split("|")
            last = f if g == "f" else m
        return {"culture": c, "gender": g, "first": first, "last": last}

    def name(self, slot):
        r = self.rng
        gender = "f" if slot.endswith("F") else "m" if slot.endswith("M") else None
        p = self.new_person(gender)
        self.person = p
        base = slot.rstrip("FM") if slot not in ("FIRST", "FULL", "TNAME") else slot
        if base == "FIRST":
            return p["first"]
        if base == "FULL":
            return p["first"] + " " + p["last"]
        # title + surname (or + full name)
        if p["culture"] == "japanese" and r.random() < 0.5:
            return p["last"] + "-san"
        titles = TITLES.get(p["culture"]) if r.random() < 0.6 else None
        titles = titles or TITLES["default"]
        title = r.choice(titles[0] if p["gender"] == "m" else titles[1])
        if r.random() < 0.3:
            return "%s %s %s" % (title, p["first"], p["last"])
        return "%s %s" % (title, p["last"])

    # -- email -------------------------------------------------------------
    def email(self):
        r = self.rng
        p = self.person if (self.person and r.random() < 0.75) else self.new_person()
        self.person = None  # use a named person's address at most once
        f, last = asciify(p["first"]), asciify(p["last"])
        yy = str(r.randint(62, 99) if r.random() < 0.5 else r.randint(0, 12)).zfill(2)
        local = r.choice(
            [
                f + "." + last,
                f + last,
                f[0] + "." + last,
                f + "_" + last + yy,
                f + "19" + yy if int(yy) > 50 else f + "20" + yy,
                last + "." + f,
                f + "." + last + str(r.randint(1, 99)),
                f + "-" + last,
                f[0] + last + str(r.randint(1, 9)),
            ]
        )
        doms = EMAIL_DOMAINS[p["culture"]] if r.random() < 0.6 else GENERIC_DOMAINS
        return local + "@" + r.choice(doms)

    # -- phone -------------------------------------------------------------
    def phone(self):
        r, d = self.rng, self.d
        c = self.phone_countries.draw()
        intl = r.random() < 0.5
        if c == "uk":
            if r.random() < 0.75:
                a, b = "7" + r.choice(["700", "911", "432", "824", "563", "398"]), d(6)
                return "+44 %s %s" % (a, b) if intl else "0%s %s" % (a, b)
            a, b, cc = r.choice(["161", "113", "117", "131"]), d(3), d(4)
            return "+44 %s %s %s" % (a, b, cc) if intl else "0%s %s %s" % (a, b, cc)
        if c == "us":
            a = r.choice(["212", "415", "312", "617", "503", "512", "919", "608"])
            b, cc = str(r.randint(2, 9)) + d(2), d(4)
            return "+1 %s %s %s" % (a, b, cc) if intl else "(%s) %s-%s" % (a, b, cc)
        if c == "de":
            if r.random() < 0.7:
                a, b = "1" + r.choice(["51", "52", "57", "60", "70", "76"]), d(8)
                return "+49 %s %s" % (a, b) if intl else "0%s %s" % (a, b)
            a, b = r.choice(["30", "40", "89", "221"]), d(7)
            return "+49 %s %s" % (a, b) if intl else "0%s %s" % (a, b)
        if c == "fr":
            a = r.choice("67")
            rest = " ".join(d(2) for _ in range(4))
            return "+33 %s %s" % (a, rest) if intl else "0%s %s" % (a, rest)
        if c == "es":
            s = "6%s %s %s" % (d(2), d(3), d(3))
            return "+34 " + s if intl else s
        if c == "it":
            s = "3%s %s %s" % (r.choice(["20", "33", "47", "88", "91"]), d(3), d(4))
            return "+39 " + s if intl else s
        if c == "pl":
            s = "%s%s %s %s" % (r.choice("5678"), d(2), d(3), d(3))
            return "+48 " + s if intl else s
        if c == "cz":
            s = "%s%s %s %s" % (r.choice("67"), d(2), d(3), d(3))
            return "+420 " + s if intl else s
        if c == "se":
            a, b, cc, e = r.choice(["0", "2", "3", "6"]), d(3), d(2), d(2)
            return "+46 7%s %s %s %s" % (a, b, cc, e) if intl else "07%s-%s %s %s" % (a, b, cc, e)
        if c == "no":
            s = "%s%s %s %s" % (r.choice("49"), d(2), d(2), d(3))
            return "+47 " + s if intl else s
        if c == "fi":
            a, b, cc = r.choice(["40", "44", "45", "50"]), d(3), d(4)
            return "+358 %s %s %s" % (a, b, cc) if intl else "0%s %s %s" % (a, b, cc)
        if c == "br":
            a, b, cc = r.choice(["11", "21", "31", "41", "51"]), "9" + d(4), d(4)
            return "+55 %s %s-%s" % (a, b, cc) if intl else "(%s) %s-%s" % (a, b, cc)
        if c == "ar":
            b, cc = d(4), d(4)
            return "+54 9 11 %s-%s" % (b, cc) if intl else "11 15-%s-%s" % (b, cc)
        if c == "in":
            s = "%s%s %s" % (r.choice("6789"), d(4), d(5))
            return "+91 " + s if intl else s
        if c == "au":
            a, b, cc = "4" + d(2), d(3), d(3)
            return "+61 %s %s %s" % (a, b, cc) if intl else "0%s %s %s" % (a, b, cc)
        if c == "jp":
            a, b, cc = r.choice(["80", "90", "70"]), d(4), d(4)
            return "+81 %s-%s-%s" % (a, b, cc) if intl else "0%s-%s-%s" % (a, b, cc)
        if c == "nl":
            s = "6 %s %s" % (d(4), d(4))
            return "+31 " + s if intl else "0" + s
        raise ValueError(c)

    # -- IBAN / card -------------------------------------------------------
    def iban(self):
        r = self.rng
        cc = self.iban_countries.draw()
        parts = []
        for i, (kind, n) in enumerate(IBAN_SPECS[cc]):
            if kind == "a":
                if i == 0 and cc in ("GB", "IE", "NL"):
                    parts.append(r.choice({"GB": GB_BANKS, "IE": IE_BANKS, "NL": NL_BANKS}[cc]))
                else:
                    parts.append("".join(r.choice(UPPER) for _ in range(n)))
            else:
                parts.append(self.d(n))
        bban = "".join(parts)
        iban = cc + iban_check(cc, bban) + bban
        assert len(iban) == IBAN_LENGTHS[cc]
        if r.random() < 0.55:
            return " ".join(iban[i : i + 4] for i in range(0, len(iban), 4))
        return iban

    def card(self):
        r = self.rng
        kind = self.card_kinds.draw()
        if kind == "visa":
            prefix, length = "4", 16
        elif kind == "mc":
            prefix, length = "5" + r.choice("12345"), 16
        elif kind == "mc2":
            prefix, length = str(r.randint(2221, 2720)), 16
        elif kind == "amex":
            prefix, length = r.choice(["34", "37"]), 15
        else:
            prefix, length = "6011", 16
        payload = prefix + self.d(length - 1 - len(prefix))
        num = payload + luhn_digit(payload)
        if r.random() < 0.5:
            return num
        if length == 15:
            return "%s %s %s" % (num[:4], num[4:10], num[10:])
        return " ".join(num[i : i + 4] for i in range(0, 16, 4))

    # -- money -------------------------------------------------------------
    def amount(self, size, prefix_only=False):
        r = self.rng
        while True:
            cur = self.currencies.draw()
            spec = CURRENCIES[cur]
            if spec[5] or not prefix_only:
                break
        pre, suf, tsep, dsep, factor, _, cents_ok = spec
        lo, hi = AMOUNT_RANGES[size]
        value = r.uniform(lo, hi) * factor
        cents = None
        if size == "hourly" and cents_ok and r.random() < 0.6:
            cents = r.randint(0, 99)
            whole = int(value)
        elif size == "bal" and cents_ok and r.random() < 0.6:
            cents = r.randint(0, 99)
            whole = int(value)
        else:
            step = 1
            for limit, st in ((100, 1), (1000, 10), (10000, 50), (100000, 100), (10**6, 500)):
                if value >= limit:
                    step = st
            if value >= 10**6:
                step = 5000
            whole = max(step, int(round(value / step)) * step)
        digits = str(whole)
        if tsep == "IN":
            num = indian_group(digits)
        elif len(digits) >= 4 or tsep in (",", "."):
            num = group(digits, tsep) if len(digits) > 3 else digits
        else:
            num = digits
        if cents is not None:
            num += dsep + "%02d" % cents
        return pre + num + suf

    def finance(self, slot):
        deck = {"DEBT": self.debt, "SAV": self.sav, "INC": self.inc}[slot]
        pattern, size = deck.draw()
        a = self.amount(size, prefix_only=pattern.startswith("a {a}"))
        if pattern.startswith("a {a}") and a.startswith("A$"):
            pattern = "an" + pattern[1:]
        return pattern.replace("{a}", a)

    # -- address -----------------------------------------------------------
    def address(self):
        r, d = self.rng, self.d
        c = self.countries.draw()
        st = self.streets[c].draw()
        short_only = r.random() < 0.25
        if c == "uk":
            num = str(r.randint(1, 220))
            town, area = r.choice(UK_TOWNS)
            pc = "%s%d %d%s%s" % (
                area,
                r.randint(1, 28),
                r.randint(1, 9),
                r.choice(UK_PC_LETTERS),
                r.choice(UK_PC_LETTERS),
            )
            flat = "Flat %d, " % r.randint(1, 12) if r.random() < 0.25 else ""
            short, full = num + " " + st, "%s%s %s, %s %s" % (flat, num, st, town, pc)
        elif c == "us":
            num = str(r.randint(100, 9899))
            city, state, z = r.choice(US_CITIES)
            apt = ", Apt %d%s" % (r.randint(1, 12), r.choice("ABCD")) if r.random() < 0.3 else ""
            short = num + " " + st
            full = "%s %s%s, %s, %s %s%s" % (num, st, apt, city, state, z, d(2))
        elif c == "de":
            num = str(r.randint(1, 120)) + (r.choice("ab") if r.random() < 0.15 else "")
            town, p = r.choice(DE_TOWNS)
            short, full = st + " " + num, "%s %s, %s%s %s" % (st, num, p, d(3), town)
        elif c == "fr":
            num = str(r.randint(1, 150)) + (" bis" if r.random() < 0.1 else "")
            town, cps = r.choice(FR_TOWNS)
            short, full = num + " " + st, "%s %s, %s %s" % (num, st, r.choice(cps), town)
        elif c == "es":
            num = str(r.randint(1, 140))
            town, p = r.choice(ES_TOWNS)
            floor = (
                ", %dº %s" % (r.randint(1, 8), r.choice(["A", "B", "C", "izq.", "dcha."])) if r.random() < 0.6 else ""
            )
            short = "%s, %s" % (st, num) if r.random() < 0.5 else "%s %s" % (st, num)
            full = "%s, %s%s, %s%s %s" % (st, num, floor, p, d(3), town)
        elif c == "it":
            num = str(r.randint(1, 160))
            town, prov, p = r.choice(IT_TOWNS)
            short = "%s %s" % (st, num) if r.random() < 0.6 else "%s, %s" % (st, num)
            full = "%s %s, %s%s %s (%s)" % (st, num, p, d(2), town, prov)
        elif c == "pl":
            num = str(r.randint(1, 150))
            if r.random() < 0.7:
                num += "/%d" % r.randint(1, 60)
            town, p = r.choice(PL_TOWNS)
            short, full = st + " " + num, "%s %s, %s%s-%s %s" % (st, num, p, d(1), d(3), town)
        elif c == "cz":
            num = "%d/%d" % (r.randint(100, 2999), r.randint(1, 90))
            town, psc = r.choice(CZ_TOWNS)
            short, full = st + " " + num, "%s %s, %s %s" % (st, num, psc, town)
        elif c == "se":
            num = str(r.randint(1, 90))
            town, p = r.choice(SE_TOWNS)
            lgh = ", lgh %d" % r.randint(1001, 1405) if r.random() < 0.3 else ""
            short = st + " " + num
            full = "%s %s%s, %s%s %s %s" % (st, num, lgh, p, d(1), d(2), town)
        elif c == "no":
            num = str(r.randint(1, 120)) + (r.choice("ABC") if r.random() < 0.3 else "")
            town, p = r.choice(NO_TOWNS)
            short, full = st + " " + num, "%s %s, %s%s %s" % (st, num, p, d(4 - len(p)), town)
        elif c == "fi":
            num = str(r.randint(1, 90))
            town, p = r.choice(FI_TOWNS)
            apt = " %s %d" % (r.choice("ABC"), r.randint(1, 40)) if r.random() < 0.6 else ""
            short = st + " " + num + apt
            full = "%s %s%s, %s%s0 %s" % (st, num, apt, p, d(2), town)
        elif c == "br":
            num = str(r.randint(10, 3200))
            city, uf, bairro, p = r.choice(BR_CITIES)
            apto = ", apto %d" % r.randint(11, 184) if r.random() < 0.6 else ""
            short = "%s, %s" % (st, num)
            full = "%s, %s%s - %s, %s - %s, %s%s-%s" % (st, num, apto, bairro, city, uf, p, d(3), d(3))
        elif c == "ar":
            num = str(r.randint(100, 4800))
            city, p = r.choice(AR_CITIES)
            if city == "CABA":
                p = "C1%s%s" % (d(3), "".join(r.choice(UPPER) for _ in range(3)))
            piso = ", piso %d, depto. %s" % (r.randint(1, 14), r.choice("ABCDEF")) if r.random() < 0.5 else ""
            short, full = st + " " + num, "%s %s%s, %s %s" % (st, num, piso, p, city)
        elif c == "in":
            num = str(r.randint(1, 240))
            city, p, areas = r.choice(IN_CITIES)
            area = r.choice(areas)
            if r.random() < 0.5:
                full = "Flat %d, %s, %s %s, %s, %s %s%s" % (
                    r.randint(101, 1204),
                    r.choice(IN_BUILDINGS),
                    num,
                    st,
                    area,
                    city,
                    p,
                    d(3),
                )
            else:
                full = "H.No. %s, %s, %s, %s - %s%s" % (num, st, area, city, p, d(3))
            short = "%s %s" % (num, st) if not st.endswith(tuple("0123456789")) else "H.No. %s, %s" % (num, st)
        elif c == "jp":
            ward, city, pc = JP_PLACES[st]
            num = "%d-%d-%d" % (r.randint(1, 6), r.randint(1, 30), r.randint(1, 20))
            short = "%s %s" % (num, st)
            if r.random() < 0.5:
                full = "%s %s, %s, %s %s" % (num, st, ward, city, pc)
            else:
                full = "〒%s %s, %s, %s %s" % (pc, city, ward, st, num)
        elif c == "au":
            num = str(r.randint(1, 240))
            suburb, state, pc = r.choice(AU_SUBURBS)
            unit = "%d/" % r.randint(1, 20) if r.random() < 0.3 else ""
            short = unit + num + " " + st
            full = "%s %s, %s %s %s" % (unit + num, st, suburb, state, pc)
        elif c == "nl":
            num = str(r.randint(1, 400)) + ("-%s" % r.choice(["A", "B", "1", "2"]) if r.random() < 0.2 else "")
            town, p = r.choice(NL_TOWNS)
            ll = r.choice(["AB", "CW", "GK", "JL", "NP", "RT", "XH", "EK", "BV"])
            short, full = st + " " + num, "%s %s, %s%s %s %s" % (st, num, p, d(2), ll, town)
        elif c == "ie":
            num = str(r.randint(1, 90))
            town, county, route = r.choice(IE_TOWNS)
            eir = "".join(r.choice("ACDEFHKNPRTVWXY0123456789") for _ in range(4))
            short = "%s %s" % (num, st)
            full = "%s %s, %s, Co. %s %s %s" % (num, st, town, county, route, eir)
        else:
            raise ValueError(c)
        return short if short_only else full

    # -- fill one slot -------------------------------------------------------
    def fill(self, slot):
        """Return (value, type or None)."""
        if slot in ("FIRST", "FIRSTF", "FIRSTM", "FULL", "FULLF", "FULLM", "TNAME", "TNAMEF", "TNAMEM"):
            return self.name(slot), "REAL_NAME"
        if slot == "ADDR":
            return self.address(), "ADDRESS"
        if slot == "EMAIL":
            return self.email(), "EMAIL"
        if slot == "PHONE":
            return self.phone(), "PHONE"
        if slot == "IBAN":
            return self.iban(), "IBAN"
        if slot == "CARD":
            return self.card(), "CREDIT_CARD"
        if slot in ("COND", "SYMP", "MED", "TREAT"):
            deck = {"COND": self.cond, "SYMP": self.symp, "MED": self.med, "TREAT": self.treat}[slot]
            return deck.draw(), "HEALTH"
        if slot in ("DEBT", "SAV", "INC"):
            return self.finance(slot), "FINANCE"
        if slot == "EMP":
            return self.emp.draw(), "EMPLOYER"
        if slot == "SCHOOL":
            return self.school.draw(), "EMPLOYER"
        distractor = {
            "CELEB": self.celebs,
            "FICTION": self.fiction,
            "COMPANY": self.companies,
            "PRODUCT": self.products,
            "PRICE": self.prices,
            "CSNUM": self.csnums,
            "STREETNAME": self.all_streets,
        }[slot]
        return distractor.draw(), None


def render(gen, tpl):
    """Fill one template; return (text, spans relative to its start)."""
    gen.person = None
    text, spans, pos = "", [], 0
    seen = set()
    for m in SLOT_RE.finditer(tpl["text"]):
        text += tpl["text"][pos : m.start()]
        for _ in range(20):  # avoid the same value twice in one sentence
            value, typ = gen.fill(m.group(1))
            if value not in seen:
                break
        seen.add(value)
        if typ:
            spans.append([len(text), len(text) + len(value), typ])
        text += value
        pos = m.end()
    text += tpl["text"][pos:]
    return text, spans


def build_message(gen, tpls):
    text, spans = "", []
    for i, tpl in enumerate(tpls):
        if i:
            if text[-1].isalnum():
                text += "."
            text += " "
        t, s = render(gen, tpl)
        spans.extend([a + len(text), b + len(text), typ] for a, b, typ in s)
        text += t
    return {"text": text, "spans": spans, "template": "+".join(t["id"] for t in tpls)}


def main():
    rng = random.Random(SEED)
    pii_tpls, none_tpls = load_templates()
    gen = Gen(rng)
    pii_deck = Deck(rng, pii_tpls)
    none_deck = Deck(rng, none_tpls)

    multi_pii = set(rng.sample(range(N_PII), N_PII_MULTI))
    multi_none = set(rng.sample(range(N_NONE), N_NONE_MULTI))

    messages = []
    for i in range(N_PII):
        tpls = [pii_deck.draw()]
        if i in multi_pii:
            for _ in range(rng.choice([1, 1, 2])):
                tpls.append(pii_deck.draw() if rng.random() < 0.6 else none_deck.draw())
            rng.shuffle(tpls)
        messages.append(build_message(gen, tpls))
    for i in range(N_NONE):
        tpls = [none_deck.draw()]
        if i in multi_none:
            for _ in range(rng.choice([1, 1, 2])):
                tpls.append(none_deck.draw())
        messages.append(build_message(gen, tpls))
    rng.shuffle(messages)

    # self-checks
    for msg in messages:
        last_end = -1
        for a, b, typ in msg["spans"]:
            assert a >= last_end and a < b, msg
            value = msg["text"][a:b]
            assert value == value.strip() and value, msg
            last_end = b
    with open(OUT, "w", encoding="utf-8", newline="\n") as fh:
        for msg in messages:
            fh.write(json.dumps(msg, ensure_ascii=False) + "\n")

    counts = {}
    for msg in messages:
        for _, _, typ in msg["spans"]:
            counts[typ] = counts.get(typ, 0) + 1
    with_pii = sum(1 for m in messages if m["spans"])
    print("messages: %d (%d with personal data, %d without)" % (len(messages), with_pii, len(messages) - with_pii))
    print("spans: " + ", ".join("%s %d" % (t, counts[t]) for t in sorted(counts)))


if __name__ == "__main__":
    main()
