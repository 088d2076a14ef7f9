#!/usr/bin/env python3
"""Generate pii_generator_gc.jsonl: 600 chat/post-style messages, 480 with personal data spans, 120 without.

Standard library only; seeded (76) so every run writes the same file.
"""

import json
import random
import re
import unicodedata
from pathlib import Path

SEED = 76
HERE = Path(__file__).resolve().parent
OUT = HERE / "pii_generator_gc.jsonl"

N_PII = 480
N_NONE = 120

# ---------------------------------------------------------------------------------------------------------------
# Names: culture -> (male first names, female first names, surnames). "a|b" surnames are male|female forms.
# ---------------------------------------------------------------------------------------------------------------
NAMES = {
    "english": (
        ["Oliver", "George", "Thomas", "Alfie", "Edward"],
        ["Charlotte", "Emily", "Sophie", "Hannah", "Lucy"],
        ["Thompson", "Hughes", "Whitfield", "Clarke", "Pemberton", "Ashworth"],
    ),
    "irish": (
        ["Seán", "Cian", "Pádraig", "Oisín"],
        ["Aoife", "Siobhán", "Niamh", "Róisín"],
        ["O'Sullivan", "Byrne", "Kavanagh", "Ó Ceallaigh", "McCarthy"],
    ),
    "scottish_welsh": (
        ["Callum", "Rhys", "Dafydd", "Euan"],
        ["Eilidh", "Catrìona", "Seren", "Morag"],
        ["MacLeod", "Fraser", "Llewellyn", "Pritchard"],
    ),
    "american": (
        ["Tyler", "Jaden", "Marcus", "Cody"],
        ["Madison", "Kayla", "Brianna", "Shelby"],
        ["Brennan", "Caldwell", "Mercer", "Rutherford", "Delaney"],
    ),
    "german": (
        ["Jürgen", "Lukas", "Matthias", "Jörg", "Maximilian"],
        ["Mareike", "Anke", "Lena", "Käthe", "Sabine"],
        ["Schröder", "Weißmann", "Hoffmann", "Krüger", "Becker", "Schäfer"],
    ),
    "french": (
        ["François", "Théo", "Jérôme", "Loïc", "Rémi"],
        ["Chloé", "Hélène", "Océane", "Maëlle", "Léa"],
        ["Lefèvre", "Moreau", "Girard", "Dubois", "Fontaine", "Mercier"],
    ),
    "spanish": (
        ["José", "Álvaro", "Iñigo", "Rubén"],
        ["Lucía", "Inés", "Begoña", "Nuria"],
        ["García", "Fernández", "Muñoz", "Ibáñez", "Peña", "Ortega"],
    ),
    "italian": (
        ["Niccolò", "Matteo", "Lorenzo", "Gianluca"],
        ["Giulia", "Chiara", "Francesca", "Bianca"],
        ["Rossi", "Esposito", "Bianchi", "Mancini", "Ferrara", "De Luca"],
    ),
    "portuguese_brazilian": (
        ["João", "Thiago", "Gonçalo", "Caio"],
        ["Conceição", "Beatriz", "Letícia", "Graça"],
        ["Gonçalves", "Araújo", "Magalhães", "Brandão", "Simões", "Carvalho"],
    ),
    "polish": (
        ["Łukasz", "Wojciech", "Michał", "Grzegorz"],
        ["Małgorzata", "Agnieszka", "Zofia", "Katarzyna"],
        ["Nowak", "Wójcik", "Kowalski|Kowalska", "Zieliński|Zielińska", "Wiśniewski|Wiśniewska", "Dąbrowski|Dąbrowska"],
    ),
    "czech": (
        ["Jiří", "Tomáš", "Ondřej", "Vojtěch"],
        ["Tereza", "Kateřina", "Zuzana", "Markéta"],
        ["Novák|Nováková", "Dvořák|Dvořáková", "Černý|Černá", "Procházka|Procházková"],
    ),
    "swedish": (
        ["Björn", "Måns", "Anders", "Göran"],
        ["Åsa", "Linnéa", "Ingrid", "Märta"],
        ["Lindqvist", "Söderberg", "Åkesson", "Bergström"],
    ),
    "norwegian": (
        ["Håkon", "Øystein", "Sindre", "Torbjørn"],
        ["Solveig", "Kari", "Ragnhild", "Sigrid"],
        ["Haugen", "Sæther", "Løvås", "Bråten"],
    ),
    "finnish": (
        ["Jussi", "Väinö", "Juha", "Eero"],
        ["Päivi", "Aino", "Sanna", "Tuulikki"],
        ["Virtanen", "Mäkinen", "Kärkkäinen", "Leinonen", "Nieminen"],
    ),
    "dutch": (
        ["Joost", "Sander", "Bram", "Maarten"],
        ["Fenna", "Marloes", "Sanne", "Anouk"],
        ["de Vries", "van Dijk", "Bakker", "Visser", "van der Meulen"],
    ),
    "greek": (
        ["Giorgos", "Dimitris", "Nikos"],
        ["Eleni", "Katerina", "Despina"],
        ["Papadopoulos|Papadopoulou", "Georgiou", "Nikolaidis|Nikolaidou", "Karagiannis|Karagianni"],
    ),
    "turkish": (["Emre", "Oğuz", "Barış"], ["Elif", "Zeynep", "Gülşen"], ["Yılmaz", "Öztürk", "Şahin", "Demirci"]),
    "arabic": (
        ["Omar", "Youssef", "Khaled"],
        ["Fatima", "Layla", "Nour"],
        ["Haddad", "Al-Masri", "Mansour", "El-Amin"],
    ),
    "indian": (
        ["Arjun", "Rohan", "Vikram", "Karthik", "Senthil"],
        ["Priya", "Ananya", "Lakshmi", "Divya", "Meenakshi"],
        ["Sharma", "Iyer", "Reddy", "Patel", "Venkataraman", "Banerjee", "Nair"],
    ),
    "chinese": (["Wei", "Hao", "Jun"], ["Mei", "Xiaoling", "Yan"], ["Zhang", "Liu", "Chen", "Huang", "Zhou"]),
    "japanese": (
        ["Haruto", "Kenji", "Takumi"],
        ["Yui", "Sakura", "Aiko"],
        ["Tanaka", "Watanabe", "Yamamoto", "Kobayashi", "Saitō"],
    ),
    "korean": (["Min-jun", "Ji-hoon", "Seo-jun"], ["Ji-woo", "Seo-yeon", "Hae-won"], ["Kim", "Park", "Choi", "Jeong"]),
    "vietnamese": (["Minh", "Quang", "Đức"], ["Thảo", "Ngọc", "Linh"], ["Nguyễn", "Trần", "Phạm", "Lê"]),
    "nigerian": (
        ["Chinedu", "Oluwaseun", "Emeka", "Tunde"],
        ["Ngozi", "Adaeze", "Folake", "Chiamaka"],
        ["Okafor", "Adeyemi", "Nwosu", "Balogun", "Eze"],
    ),
    "kenyan": (["Kamau", "Otieno"], ["Wanjiru", "Achieng"], ["Mwangi", "Odhiambo", "Kariuki"]),
    "hungarian": (["Bence", "Zoltán"], ["Réka", "Zsófia"], ["Nagy", "Kovács", "Szabó", "Tóth"]),
    "ukrainian_russian": (
        ["Dmitri", "Oleksandr", "Mykola"],
        ["Anastasia", "Olena", "Yulia"],
        ["Ivanov|Ivanova", "Shevchenko", "Kovalenko", "Petrov|Petrova"],
    ),
    "mexican_argentine": (
        ["Santiago", "Joaquín", "Emiliano"],
        ["Valentina", "Ximena", "Guadalupe"],
        ["Hernández", "Domínguez", "Gutiérrez", "Sosa"],
    ),
    "icelandic": (
        ["Guðmundur", "Einar"],
        ["Sigríður", "Þóra"],
        ["Sigurðsson|Sigurðardóttir", "Magnússon|Magnúsdóttir"],
    ),
}

TITLES = {"m": ["Mr", "Mr.", "Dr", "Dr.", "Prof."], "f": ["Mrs", "Ms", "Miss", "Dr", "Mrs.", "Ms."]}

ASCII_FOLD = str.maketrans(
    {
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
        "ð": "d",
        "Ð": "D",
        "þ": "th",
        "Þ": "Th",
        "'": "",
        " ": "",
        "-": "",
    }
)


def ascii_fold(s):
    s = s.translate(ASCII_FOLD)
    s = unicodedata.normalize("NFKD", s)
    return "".join(c for c in s if not unicodedata.combining(c)).lower()


# ---------------------------------------------------------------------------------------------------------------
# Addresses: per country, street names, towns with postcode rules, and a format function.
# ---------------------------------------------------------------------------------------------------------------
STREETS = {
    "UK": [
        "Elm Grove",
        "Mill Lane",
        "Station Road",
        "Victoria Road",
        "Kingsley Avenue",
        "Rosebank Close",
        "Hawthorn Drive",
        "Windsor Terrace",
    ],
    "US": [
        "Maple Avenue",
        "Oak Street",
        "Cedar Lane",
        "Willow Drive",
        "Pinecrest Road",
        "Lakeview Boulevard",
        "Sycamore Court",
        "Juniper Way",
    ],
    "DE": [
        "Lindenstraße",
        "Goethestraße",
        "Am Mühlbach",
        "Schillerweg",
        "Bahnhofstraße",
        "Birkenallee",
        "Rosenstraße",
        "Kastanienweg",
    ],
    "FR": [
        "rue des Lilas",
        "rue des Acacias",
        "chemin des Vignes",
        "impasse du Moulin",
        "allée des Tilleuls",
        "rue du Château d'Eau",
        "avenue des Peupliers",
    ],
    "ES": [
        "Calle Mayor",
        "Calle de la Paz",
        "Avenida de Andalucía",
        "Calle del Olivo",
        "Paseo de la Estación",
        "Calle San Vicente",
        "Calle Real",
    ],
    "IT": [
        "Via Roma",
        "Via Garibaldi",
        "Via dei Mille",
        "Via delle Rose",
        "Viale dei Pini",
        "Via Cavour",
        "Vicolo del Pozzo",
    ],
    "PL": [
        "ul. Kwiatowa",
        "ul. Lipowa",
        "ul. Słoneczna",
        "ul. Ogrodowa",
        "ul. Mickiewicza",
        "ul. Brzozowa",
        "os. Źródlane",
    ],
    "CZ": ["Lipová", "Husova", "Komenského", "U Školy", "Nádražní", "Zahradní", "Květná"],
    "SE": ["Storgatan", "Björkvägen", "Kyrkogatan", "Ekbacken", "Sjövägen", "Tallstigen"],
    "NO": ["Kirkeveien", "Bjørkelia", "Storgata", "Fjellveien", "Skogveien", "Granåsen"],
    "FI": ["Koivukuja", "Rantatie", "Kirkkokatu", "Mäntytie", "Puistokatu", "Pihlajakatu"],
    "BR": [
        "Rua das Flores",
        "Rua São João",
        "Rua dos Ipês",
        "Travessa da Paz",
        "Rua Sete de Setembro",
        "Rua Monte Alegre",
        "Alameda dos Anjos",
    ],
    "AR": ["Thames", "Gorriti", "Calle Bolívar", "Pasaje Los Álamos", "Calle Jacarandá", "Avenida San Martín"],
    "IN": [
        "Temple Road",
        "11th Main Road",
        "Nehru Street",
        "Old Airport Road",
        "2nd Cross Street",
        "Gandhi Bazaar Road",
    ],
    "JP": ["Kitazawa", "Sakuragaoka-chō", "Higashi-Nakano", "Shimouma", "Kōenji-Minami", "Tenjinbashi"],
    "AU": [
        "Wattle Street",
        "Banksia Avenue",
        "Jacaranda Crescent",
        "Bottlebrush Close",
        "Kookaburra Way",
        "Gum Tree Lane",
    ],
    "NL": ["Kastanjelaan", "Molenstraat", "Beukenlaan", "Zeeweg", "Tulpstraat"],
    "IE": ["Oakfield Park", "Seaview Terrace", "Church View", "Glenview Lawns"],
    "CA": ["Maplewood Crescent", "Birchmount Road", "Rue des Érables", "Spruce Hollow Drive"],
}

UK_TOWNS = [
    ("Leeds", "LS"),
    ("Bristol", "BS"),
    ("Manchester", "M"),
    ("Cardiff", "CF"),
    ("Glasgow", "G"),
    ("Norwich", "NR"),
    ("York", "YO"),
    ("Brighton", "BN"),
    ("Sheffield", "S"),
    ("Exeter", "EX"),
]
US_TOWNS = [
    ("Springfield", "IL", "627"),
    ("Portland", "OR", "972"),
    ("Austin", "TX", "787"),
    ("Columbus", "OH", "432"),
    ("Madison", "WI", "537"),
    ("Tucson", "AZ", "857"),
    ("Raleigh", "NC", "276"),
    ("Boise", "ID", "837"),
]
DE_TOWNS = [
    ("Berlin", "10"),
    ("Hamburg", "22"),
    ("München", "80"),
    ("Köln", "50"),
    ("Leipzig", "04"),
    ("Dresden", "01"),
    ("Freiburg im Breisgau", "79"),
    ("Nürnberg", "90"),
]
FR_TOWNS = [
    ("Lyon", "6900"),
    ("Lille", "5900"),
    ("Nantes", "4400"),
    ("Bordeaux", "3300"),
    ("Toulouse", "3100"),
    ("Rennes", "3500"),
    ("Montpellier", "3400"),
    ("Besançon", "2500"),
]
ES_TOWNS = [
    ("Madrid", "280"),
    ("Valencia", "460"),
    ("Sevilla", "410"),
    ("Zaragoza", "500"),
    ("Bilbao", "480"),
    ("Málaga", "290"),
    ("A Coruña", "150"),
]
IT_TOWNS = [
    ("Milano", "201", "MI"),
    ("Torino", "101", "TO"),
    ("Bologna", "401", "BO"),
    ("Napoli", "801", "NA"),
    ("Firenze", "501", "FI"),
    ("Bari", "701", "BA"),
    ("Forlì", "471", "FC"),
]
PL_TOWNS = [("Warszawa", "0"), ("Kraków", "3"), ("Gdańsk", "8"), ("Wrocław", "5"), ("Poznań", "6"), ("Łódź", "9")]
CZ_TOWNS = [
    ("Praha 6", "160"),
    ("Praha 3", "130"),
    ("Brno", "612"),
    ("Ostrava", "702"),
    ("Plzeň", "301"),
    ("Olomouc", "779"),
    ("České Budějovice", "370"),
]
SE_TOWNS = [("Stockholm", "11"), ("Göteborg", "41"), ("Malmö", "21"), ("Uppsala", "75"), ("Umeå", "90")]
NO_TOWNS = [("Oslo", "0"), ("Bergen", "50"), ("Trondheim", "70"), ("Stavanger", "40"), ("Tromsø", "90")]
FI_TOWNS = [
    ("Helsinki", "00"),
    ("Tampere", "33"),
    ("Turku", "20"),
    ("Oulu", "90"),
    ("Espoo", "02"),
    ("Jyväskylä", "40"),
]
BR_TOWNS = [
    ("São Paulo", "SP", "0"),
    ("Rio de Janeiro", "RJ", "2"),
    ("Belo Horizonte", "MG", "3"),
    ("Curitiba", "PR", "8"),
    ("Recife", "PE", "5"),
    ("Porto Alegre", "RS", "9"),
]
AR_TOWNS = [("CABA", "C1"), ("Córdoba", "X5"), ("Rosario", "S2"), ("Mendoza", "M5"), ("La Plata", "B1")]
IN_TOWNS = [
    ("Bengaluru", "560", ["Indiranagar", "Jayanagar", "Malleswaram"]),
    ("Chennai", "600", ["Mylapore", "Adyar", "T. Nagar"]),
    ("Pune", "411", ["Kothrud", "Aundh"]),
    ("Hyderabad", "500", ["Banjara Hills", "Kukatpally"]),
    ("Kochi", "682", ["Edappally", "Kaloor"]),
    ("Jaipur", "302", ["Malviya Nagar", "Vaishali Nagar"]),
]
JP_TOWNS = [
    ("Setagaya-ku", "Tokyo", "15"),
    ("Meguro-ku", "Tokyo", "15"),
    ("Nakano-ku", "Tokyo", "16"),
    ("Kita-ku", "Osaka", "53"),
    ("Sakyō-ku", "Kyoto", "60"),
    ("Naka-ku", "Yokohama", "23"),
]
AU_TOWNS = [
    ("Fitzroy", "VIC", "3065"),
    ("Newtown", "NSW", "2042"),
    ("Paddington", "QLD", "4064"),
    ("Fremantle", "WA", "6160"),
    ("Glenelg", "SA", "5045"),
    ("Sandy Bay", "TAS", "7005"),
]
NL_TOWNS = [("Utrecht", "35"), ("Amsterdam", "10"), ("Groningen", "97"), ("Eindhoven", "56"), ("Haarlem", "20")]
IE_TOWNS = [
    ("Ranelagh, Dublin 6", "D06"),
    ("Ballincollig, Co. Cork", "P31"),
    ("Salthill, Galway", "H91"),
    ("Castletroy, Limerick", "V94"),
]
CA_TOWNS = [("Ottawa", "ON", "K1"), ("Montréal", "QC", "H2"), ("Halifax", "NS", "B3"), ("Calgary", "AB", "T2")]

UPPER = "ABCDEFGHJKLMNPQRSTUVWXYZ"
PC_LETTERS = "ABDEFGHJLNPQRSTUWXYZ"


def digits(rng, n):
    return "".join(rng.choice("0123456789") for _ in range(n))


def addr_uk(rng, street, short):
    num = rng.randint(1, 240)
    head = f"{num} {street}"
    if rng.random() < 0.25:
        head = f"Flat {rng.randint(1, 12)}, " + head
    if short:
        return head
    town, area = rng.choice(UK_TOWNS)
    pc = f"{area}{rng.randint(1, 19)} {rng.randint(1, 9)}{rng.choice(PC_LETTERS)}{rng.choice(PC_LETTERS)}"
    return f"{head}, {town} {pc}" if rng.random() < 0.6 else f"{head}, {town}, {pc}"


def addr_us(rng, street, short):
    head = f"{rng.randint(10, 9899)} {street}"
    if rng.random() < 0.3:
        head += f", Apt {rng.randint(1, 24)}{rng.choice('ABCD')}"
    if short:
        return head
    town, st, z = rng.choice(US_TOWNS)
    return f"{head}, {town}, {st} {z}{digits(rng, 2)}"


def addr_de(rng, street, short):
    head = f"{street} {rng.randint(1, 120)}{rng.choice(['', '', '', 'a', 'b'])}"
    if short:
        return head
    town, p = rng.choice(DE_TOWNS)
    return f"{head}, {p}{digits(rng, 3)} {town}"


def addr_fr(rng, street, short):
    head = f"{rng.randint(1, 90)}{rng.choice(['', '', '', ' bis'])} {street}"
    if rng.random() < 0.2:
        head = f"Apt {rng.randint(1, 40)}, " + head
    if short:
        return head
    town, p = rng.choice(FR_TOWNS)
    return f"{head}, {p}{rng.randint(0, 9)} {town}"


def addr_es(rng, street, short):
    head = f"{street}, {rng.randint(1, 150)}"
    if rng.random() < 0.6:
        head += f", {rng.randint(1, 8)}º {rng.choice(['A', 'B', 'C', 'izda.', 'dcha.'])}"
    if short:
        return head
    town, p = rng.choice(ES_TOWNS)
    return f"{head}, {p}{digits(rng, 2)} {town}"


def addr_it(rng, street, short):
    head = f"{street} {rng.randint(1, 160)}"
    if short:
        return head
    town, p, prov = rng.choice(IT_TOWNS)
    return f"{head}, {p}{digits(rng, 2)} {town} {prov}" if rng.random() < 0.5 else f"{head}, {p}{digits(rng, 2)} {town}"


def addr_pl(rng, street, short):
    head = f"{street} {rng.randint(1, 90)}"
    if rng.random() < 0.6:
        head += f"/{rng.randint(1, 60)}"
    if short:
        return head
    town, p = rng.choice(PL_TOWNS)
    return f"{head}, {p}{rng.randint(0, 9)}-{digits(rng, 3)} {town}"


def addr_cz(rng, street, short):
    head = f"{street} {rng.randint(100, 2999)}/{rng.randint(1, 60)}"
    if short:
        return head
    town, p = rng.choice(CZ_TOWNS)
    return f"{head}, {p} {rng.randint(0, 9)}0 {town}"


def addr_se(rng, street, short):
    head = f"{street} {rng.randint(1, 80)}"
    if rng.random() < 0.3:
        head += f", lgh {rng.randint(1001, 1404)}"
    if short:
        return head
    town, p = rng.choice(SE_TOWNS)
    return f"{head}, {p}{rng.randint(0, 9)} {digits(rng, 2)} {town}"


def addr_no(rng, street, short):
    head = f"{street} {rng.randint(1, 90)}{rng.choice(['', '', 'A', 'B'])}"
    if short:
        return head
    town, p = rng.choice(NO_TOWNS)
    return f"{head}, {p}{digits(rng, 4 - len(p))} {town}"


def addr_fi(rng, street, short):
    head = f"{street} {rng.randint(1, 60)}"
    if rng.random() < 0.5:
        head += f" {rng.choice('ABC')} {rng.randint(1, 30)}"
    if short:
        return head
    town, p = rng.choice(FI_TOWNS)
    return f"{head}, {p}{rng.randint(1, 9)}{rng.randint(0, 9)}0 {town}"


def addr_br(rng, street, short):
    head = f"{street}, {rng.randint(10, 2500)}"
    if rng.random() < 0.5:
        head += f", apto {rng.randint(11, 184)}"
    if short:
        return head
    town, uf, p = rng.choice(BR_TOWNS)
    return f"{head}, {town} - {uf}, {p}{digits(rng, 4)}-{digits(rng, 3)}"


def addr_ar(rng, street, short):
    head = f"{street} {rng.randint(100, 4800)}"
    if rng.random() < 0.5:
        head += f", piso {rng.randint(1, 12)} dto. {rng.choice('ABCDE')}"
    if short:
        return head
    town, p = rng.choice(AR_TOWNS)
    return f"{head}, {p}{digits(rng, 3)} {town}"


def addr_in(rng, street, short):
    head = f"{rng.randint(1, 220)}, {street}"
    if rng.random() < 0.5:
        head = f"Flat {rng.randint(1, 9)}0{rng.randint(1, 9)}, " + head
    if short:
        return head
    town, p, localities = rng.choice(IN_TOWNS)
    return f"{head}, {rng.choice(localities)}, {town} {p}{digits(rng, 3)}"


def addr_jp(rng, street, short):
    head = f"{rng.randint(1, 5)}-{rng.randint(1, 30)}-{rng.randint(1, 20)} {street}"
    if short:
        return head
    ward, city, p = rng.choice(JP_TOWNS)
    return f"{head}, {ward}, {city} {p}{rng.randint(0, 9)}-{digits(rng, 4)}"


def addr_au(rng, street, short):
    head = f"{rng.randint(1, 180)} {street}"
    if rng.random() < 0.3:
        head = f"Unit {rng.randint(1, 12)}, " + head
    if short:
        return head
    town, st, pc = rng.choice(AU_TOWNS)
    return f"{head}, {town} {st} {pc}"


def addr_nl(rng, street, short):
    head = f"{street} {rng.randint(1, 200)}{rng.choice(['', '', '-1', '-2', 'A'])}"
    if short:
        return head
    town, p = rng.choice(NL_TOWNS)
    return f"{head}, {p}{digits(rng, 2)} {rng.choice(UPPER)}{rng.choice(UPPER)} {town}"


def addr_ie(rng, street, short):
    head = f"{rng.randint(1, 90)} {street}"
    if short:
        return head
    town, p = rng.choice(IE_TOWNS)
    code = "".join(rng.choice(UPPER + "0123456789") for _ in range(4))
    return f"{head}, {town}, {p} {code}"


def addr_ca(rng, street, short):
    head = f"{rng.randint(10, 3999)} {street}"
    if short:
        return head
    town, prov, p = rng.choice(CA_TOWNS)
    return f"{head}, {town}, {prov} {p}{rng.choice(UPPER)} {rng.randint(0, 9)}{rng.choice(UPPER)}{rng.randint(0, 9)}"


ADDRESS_FORMATS = {
    "UK": addr_uk,
    "US": addr_us,
    "DE": addr_de,
    "FR": addr_fr,
    "ES": addr_es,
    "IT": addr_it,
    "PL": addr_pl,
    "CZ": addr_cz,
    "SE": addr_se,
    "NO": addr_no,
    "FI": addr_fi,
    "BR": addr_br,
    "AR": addr_ar,
    "IN": addr_in,
    "JP": addr_jp,
    "AU": addr_au,
    "NL": addr_nl,
    "IE": addr_ie,
    "CA": addr_ca,
}

# ---------------------------------------------------------------------------------------------------------------
# Phones: national and international formats.
# ---------------------------------------------------------------------------------------------------------------


def d(rng, n):
    return digits(rng, n)


PHONE_FORMATS = {
    "UK": [
        lambda r: f"07{r.randint(400, 999)} {d(r, 6)}",
        lambda r: f"+44 7{r.randint(400, 999)} {d(r, 6)}",
        lambda r: f"0113 {r.randint(200, 999)} {d(r, 4)}",
        lambda r: f"+44 (0)20 {r.randint(7000, 8999)} {d(r, 4)}",
    ],
    "US": [
        lambda r: f"({r.randint(201, 989)}) {r.randint(200, 999)}-{d(r, 4)}",
        lambda r: f"+1 {r.randint(201, 989)}-{r.randint(200, 999)}-{d(r, 4)}",
        lambda r: f"{r.randint(201, 989)}.{r.randint(200, 999)}.{d(r, 4)}",
    ],
    "DE": [
        lambda r: f"0{r.choice(['151', '160', '170', '176'])} {d(r, 8)}",
        lambda r: f"+49 {r.choice(['151', '160', '170', '176'])} {d(r, 4)} {d(r, 4)}",
        lambda r: f"030 {d(r, 8)}",
    ],
    "FR": [
        lambda r: f"0{r.choice('67')} {d(r, 2)} {d(r, 2)} {d(r, 2)} {d(r, 2)}",
        lambda r: f"+33 {r.choice('67')} {d(r, 2)} {d(r, 2)} {d(r, 2)} {d(r, 2)}",
    ],
    "ES": [lambda r: f"6{d(r, 2)} {d(r, 2)} {d(r, 2)} {d(r, 2)}", lambda r: f"+34 6{d(r, 2)} {d(r, 3)} {d(r, 3)}"],
    "IT": [lambda r: f"3{r.randint(20, 49)} {d(r, 3)} {d(r, 4)}", lambda r: f"+39 3{r.randint(20, 49)} {d(r, 7)}"],
    "PL": [
        lambda r: f"{r.choice('5678')}{d(r, 2)} {d(r, 3)} {d(r, 3)}",
        lambda r: f"+48 {r.choice('5678')}{d(r, 2)} {d(r, 3)} {d(r, 3)}",
    ],
    "CZ": [
        lambda r: f"{r.choice('67')}{d(r, 2)} {d(r, 3)} {d(r, 3)}",
        lambda r: f"+420 {r.choice('67')}{d(r, 2)} {d(r, 3)} {d(r, 3)}",
    ],
    "SE": [
        lambda r: f"07{r.choice('0236')}-{d(r, 3)} {d(r, 2)} {d(r, 2)}",
        lambda r: f"+46 7{r.choice('0236')} {d(r, 3)} {d(r, 2)} {d(r, 2)}",
    ],
    "NO": [
        lambda r: f"{r.choice('49')}{d(r, 2)} {d(r, 2)} {d(r, 3)}",
        lambda r: f"+47 {r.choice('49')}{d(r, 2)} {d(r, 2)} {d(r, 3)}",
    ],
    "FI": [
        lambda r: f"04{r.choice('0145')} {d(r, 3)} {d(r, 4)}",
        lambda r: f"+358 4{r.choice('0145')} {d(r, 3)} {d(r, 4)}",
    ],
    "BR": [
        lambda r: f"({r.choice(['11', '21', '31', '41', '51', '81'])}) 9{d(r, 4)}-{d(r, 4)}",
        lambda r: f"+55 {r.choice(['11', '21', '31', '41', '51', '81'])} 9{d(r, 4)}-{d(r, 4)}",
    ],
    "AR": [lambda r: f"011 15-{d(r, 4)}-{d(r, 4)}", lambda r: f"+54 9 11 {d(r, 4)}-{d(r, 4)}"],
    "IN": [
        lambda r: f"{r.choice('6789')}{d(r, 4)} {d(r, 5)}",
        lambda r: f"+91 {r.choice('6789')}{d(r, 4)} {d(r, 5)}",
        lambda r: f"+91-{r.choice('6789')}{d(r, 9)}",
    ],
    "JP": [
        lambda r: f"0{r.choice('789')}0-{d(r, 4)}-{d(r, 4)}",
        lambda r: f"+81 {r.choice('789')}0-{d(r, 4)}-{d(r, 4)}",
    ],
    "AU": [lambda r: f"04{d(r, 2)} {d(r, 3)} {d(r, 3)}", lambda r: f"+61 4{d(r, 2)} {d(r, 3)} {d(r, 3)}"],
}

# ---------------------------------------------------------------------------------------------------------------
# IBAN (mod-97 check digits) and payment cards (Luhn).
# ---------------------------------------------------------------------------------------------------------------


def iban_check(country, bban):
    moved = bban + country + "00"
    num = "".join(str(int(c, 36)) for c in moved)
    return f"{98 - int(num) % 97:02d}"


def bban_de(r):
    return d(r, 8) + d(r, 10)


def bban_fr(r):
    bank, branch, acct = d(r, 5), d(r, 5), d(r, 11)
    key = 97 - ((89 * int(bank) + 15 * int(branch) + 3 * int(acct)) % 97)
    return f"{bank}{branch}{acct}{key:02d}"


def bban_es(r):
    bank, branch, acct = d(r, 4), d(r, 4), d(r, 10)
    w = [1, 2, 4, 8, 5, 10, 9, 7, 3, 6]

    def dc(s):
        v = 11 - sum(int(c) * w[i] for i, c in enumerate(s)) % 11
        return {10: 1, 11: 0}.get(v, v)

    return f"{bank}{branch}{dc('00' + bank + branch)}{dc(acct)}{acct}"


def bban_it(r):
    return r.choice(UPPER) + d(r, 5) + d(r, 5) + d(r, 12)


def bban_gb(r):
    return "".join(r.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ") for _ in range(4)) + d(r, 6) + d(r, 8)


def bban_nl(r):
    return r.choice(["ABNA", "INGB", "RABO", "SNSB", "TRIO"]) + d(r, 10)


def bban_pl(r):
    return d(r, 24)


def bban_cz(r):
    return r.choice(["0100", "0300", "0800", "2010", "5500"]) + d(r, 16)


def bban_se(r):
    return d(r, 20)


def bban_no(r):
    return d(r, 11)


def bban_fi(r):
    return d(r, 14)


def bban_be(r):
    first = d(r, 10)
    chk = int(first) % 97 or 97
    return f"{first}{chk:02d}"


def bban_at(r):
    return d(r, 16)


def bban_pt(r):
    return d(r, 21)


def bban_ie(r):
    return r.choice(["AIBK", "BOFI", "IPBS"]) + d(r, 6) + d(r, 8)


IBAN_COUNTRIES = {
    "DE": bban_de,
    "FR": bban_fr,
    "ES": bban_es,
    "IT": bban_it,
    "GB": bban_gb,
    "NL": bban_nl,
    "PL": bban_pl,
    "CZ": bban_cz,
    "SE": bban_se,
    "NO": bban_no,
    "FI": bban_fi,
    "BE": bban_be,
    "AT": bban_at,
    "PT": bban_pt,
    "IE": bban_ie,
}


def make_iban(r):
    country = r.choice(list(IBAN_COUNTRIES))
    bban = IBAN_COUNTRIES[country](r)
    iban = country + iban_check(country, bban) + bban
    if r.random() < 0.55:
        return " ".join(iban[i : i + 4] for i in range(0, len(iban), 4))
    return iban


def luhn_digit(partial):
    total = 0
    for i, c in enumerate(reversed(partial)):
        n = int(c)
        if i % 2 == 0:
            n *= 2
            if n > 9:
                n -= 9
        total += n
    return str((10 - total % 10) % 10)


CARD_PREFIXES = [
    ("4", 16),
    ("4", 16),
    ("51", 16),
    ("53", 16),
    ("55", 16),
    ("2221", 16),
    ("2720", 16),
    ("34", 15),
    ("37", 15),
    ("6011", 16),
    ("65", 16),
    ("35", 16),
]


def make_card(r):
    prefix, length = r.choice(CARD_PREFIXES)
    body = prefix + d(r, length - len(prefix) - 1)
    num = body + luhn_digit(body)
    style = r.random()
    if style < 0.45:
        return num
    sep = " " if style < 0.9 else "-"
    if length == 15:
        return sep.join([num[:4], num[4:10], num[10:]])
    return sep.join(num[i : i + 4] for i in range(0, 16, 4))


# ---------------------------------------------------------------------------------------------------------------
# Health: conditions (may carry an article), medications (no article), symptoms, treatments.
# ---------------------------------------------------------------------------------------------------------------
CONDITIONS = [
    "type 1 diabetes",
    "type 2 diabetes",
    "asthma",
    "epilepsy",
    "multiple sclerosis",
    "Crohn's disease",
    "ulcerative colitis",
    "coeliac disease",
    "hypothyroidism",
    "an underactive thyroid",
    "rheumatoid arthritis",
    "psoriasis",
    "severe eczema",
    "fibromyalgia",
    "chronic fatigue syndrome",
    "long covid",
    "depression",
    "generalised anxiety disorder",
    "bipolar disorder",
    "PTSD",
    "ADHD",
    "OCD",
    "anorexia",
    "bulimia",
    "an eating disorder",
    "schizophrenia",
    "high blood pressure",
    "high cholesterol",
    "heart failure",
    "atrial fibrillation",
    "COPD",
    "sleep apnoea",
    "chronic migraines",
    "glaucoma",
    "tinnitus",
    "bowel cancer",
    "leukaemia",
    "Hodgkin lymphoma",
    "a brain tumour",
    "kidney stones",
    "chronic kidney disease",
    "hepatitis C",
    "HIV",
    "gout",
    "osteoporosis",
    "scoliosis",
    "a slipped disc",
    "lupus",
    "Parkinson's",
    "early-onset dementia",
    "Alzheimer's",
    "a stomach ulcer",
    "IBS",
    "shingles",
    "pneumonia",
    "a torn ACL",
    "sciatica",
    "borderline personality disorder",
    "an alcohol addiction",
    "sickle cell disease",
    "cystic fibrosis",
    "a heart murmur",
    "vertigo",
]
FEMALE_CONDITIONS = [
    "endometriosis",
    "PCOS",
    "postnatal depression",
    "gestational diabetes",
    "breast cancer",
    "ovarian cancer",
    "cervical cancer",
]
MALE_CONDITIONS = ["prostate cancer", "testicular cancer", "an enlarged prostate"]
CHILD_CONDITIONS = [
    "type 1 diabetes",
    "asthma",
    "epilepsy",
    "coeliac disease",
    "ADHD",
    "severe eczema",
    "autism",
    "dyslexia",
    "scoliosis",
    "a heart murmur",
    "cystic fibrosis",
    "sickle cell disease",
    "leukaemia",
    "a peanut allergy",
    "juvenile arthritis",
    "Tourette's",
]
MEDICATIONS = [
    "sertraline 50mg",
    "sertraline",
    "fluoxetine 20mg",
    "citalopram",
    "venlafaxine 75mg",
    "mirtazapine",
    "lithium",
    "quetiapine",
    "methylphenidate",
    "lisdexamfetamine",
    "metformin 500mg",
    "insulin",
    "levothyroxine 100mcg",
    "ramipril 5mg",
    "amlodipine",
    "atorvastatin 20mg",
    "warfarin",
    "apixaban",
    "bisoprolol",
    "salbutamol",
    "omeprazole",
    "lansoprazole",
    "naproxen",
    "co-codamol",
    "tramadol",
    "gabapentin",
    "pregabalin 150mg",
    "propranolol",
    "HRT patches",
    "adalimumab injections",
    "methotrexate",
    "prednisolone",
    "tamoxifen",
    "antiretrovirals",
    "sumatriptan",
    "diazepam",
    "morphine patches",
    "iron tablets",
    "vitamin B12 injections",
    "semaglutide injections",
    "lamotrigine",
    "levetiracetam",
    "Ritalin",
    "Prozac",
]
SYMPTOMS = [
    "chest pains",
    "a persistent cough",
    "night sweats",
    "blurred vision",
    "heart palpitations",
    "dizzy spells",
    "a rash on both arms",
    "constant headaches",
    "numbness in the left hand",
    "shortness of breath",
    "blood in the stool",
    "lower back pain",
    "swollen ankles",
    "ringing in the ears",
    "insomnia",
    "panic attacks",
    "nausea every morning",
    "joint pain",
    "a high fever",
    "stomach cramps",
    "hair loss",
    "memory lapses",
    "severe fatigue",
    "a lump under the arm",
    "tremors in the hands",
    "an earache that won't quit",
    "a sore throat",
    "unexplained weight loss",
    "bleeding gums",
    "pins and needles in the feet",
]
TREATMENTS = [
    "chemotherapy",
    "radiotherapy",
    "physiotherapy",
    "dialysis",
    "IVF",
    "CBT",
    "EMDR therapy",
    "a knee replacement",
    "a hip replacement",
    "a hysterectomy",
    "gastric bypass surgery",
    "cataract surgery",
    "a mastectomy",
    "an appendectomy",
    "alcohol rehab",
    "methadone treatment",
    "speech therapy",
    "hormone therapy",
    "a colonoscopy",
    "a biopsy",
    "a heart bypass",
    "a skin graft",
    "electroconvulsive therapy",
    "a root canal",
    "grief counselling",
    "spinal surgery",
    "a kidney transplant",
]

# ---------------------------------------------------------------------------------------------------------------
# Finance: an amount with the words that make it the person's money.
# ---------------------------------------------------------------------------------------------------------------


def group(n, sep=","):
    return f"{n:,}".replace(",", sep)


def indian_group(n):
    s = str(n)
    if len(s) <= 3:
        return s
    head, tail = s[:-3], s[-3:]
    parts = []
    while len(head) > 2:
        parts.insert(0, head[-2:])
        head = head[:-2]
    parts.insert(0, head)
    return ",".join(parts) + "," + tail


def money(r, lo, hi, cents=False):
    """An amount between lo and hi (in 'pounds-ish' magnitude), in a random currency style."""
    cur = r.choice(
        [
            "GBP",
            "GBP",
            "GBP",
            "USD",
            "USD",
            "EUR",
            "EUR",
            "EUR",
            "PLN",
            "CZK",
            "SEK",
            "NOK",
            "BRL",
            "INR",
            "JPY",
            "AUD",
            "CHF",
        ]
    )
    n = r.randint(lo, hi)
    if n >= 1000:
        n = round(n, -2) if n < 20000 else round(n, -3)
    fx = {"PLN": 5, "CZK": 28, "SEK": 13, "NOK": 13, "BRL": 6, "INR": 100, "JPY": 180}
    if cur in fx:
        n = n * fx[cur]
        if n >= 1000:
            n = round(n, -2)
    frac = f".{r.randint(0, 99):02d}" if cents and n < 1000 and cur not in ("JPY", "INR") else ""
    if cur == "GBP":
        if n >= 10000 and r.random() < 0.3:
            return f"£{n // 1000}k"
        return f"£{group(n)}{frac}"
    if cur == "USD":
        if n >= 10000 and r.random() < 0.3:
            return f"${n // 1000}k"
        return f"${group(n)}{frac}"
    if cur == "EUR":
        return r.choice([f"€{group(n)}{frac}", f"{group(n, '.')}{frac.replace('.', ',')} €", f"{group(n, '.')} euros"])
    if cur == "PLN":
        return f"{group(n, ' ')} zł"
    if cur == "CZK":
        return f"{group(n, ' ')} Kč"
    if cur == "SEK":
        return f"{group(n, ' ')} kr"
    if cur == "NOK":
        return f"NOK {group(n, ' ')}"
    if cur == "BRL":
        return f"R$ {group(n, '.')}"
    if cur == "INR":
        return r.choice([f"₹{indian_group(n)}", f"Rs {indian_group(n)}"])
    if cur == "JPY":
        return f"¥{group(n)}"
    if cur == "AUD":
        return f"A${group(n)}"
    return f"CHF {group(n)}"


DEBT_FORMS = [
    ("{a} of credit card debt", 400, 25000),
    ("{a} in rent arrears", 300, 6000),
    ("{a} of student loan debt", 8000, 60000),
    ("a {a} car loan", 4000, 30000),
    ("an overdraft of {a}", 200, 3000),
    ("{a} in unpaid council tax", 300, 3000),
    ("a {a} payday loan", 200, 1500),
    ("{a} of debt", 1000, 40000),
    ("a mortgage of {a}", 80000, 450000),
    ("{a} of buy-now-pay-later debt", 200, 3000),
    ("a {a} personal loan", 2000, 25000),
    ("{a} of gambling debt", 500, 30000),
    ("{a} in tax arrears", 800, 15000),
    ("{a} in overdue energy bills", 200, 2500),
    ("{a} owed on a store card", 300, 4000),
    ("{a} in medical bills", 500, 20000),
]
SAVINGS_FORMS = [
    ("{a} in savings", 500, 60000),
    ("savings of {a}", 1000, 80000),
    ("a balance of {a}", 20, 5000),
    ("{a} in an ISA", 1000, 40000),
    ("{a} in a pension pot", 5000, 200000),
    ("an emergency fund of {a}", 500, 10000),
    ("{a} in crypto", 300, 20000),
    ("{a} sitting in a current account", 200, 15000),
    ("an inheritance of {a}", 5000, 150000),
    ("{a} in premium bonds", 500, 50000),
    ("{a} saved for a deposit", 3000, 60000),
    ("{a} in index funds", 1000, 70000),
]
SALARY_FORMS = [
    ("a salary of {a}", 18000, 120000),
    ("{a} a year", 18000, 120000),
    ("{a} a month after tax", 1200, 6000),
    ("{a} an hour", 9, 45),
    ("a take-home pay of {a} a month", 1100, 5500),
    ("{a} gross a year", 20000, 110000),
    ("{a} a year before tax", 20000, 110000),
    ("{a} a fortnight", 700, 3000),
    ("{a} a week", 250, 1200),
    ("a starting salary of {a}", 19000, 60000),
]


def make_fin(r, forms):
    form, lo, hi = r.choice(forms)
    return form.format(a=money(r, lo, hi, cents=("hour" in form or "balance" in form)))


# ---------------------------------------------------------------------------------------------------------------
# Employers and places of study (invented).
# ---------------------------------------------------------------------------------------------------------------
EMPLOYERS = [
    "Northgate Logistics",
    "Brightwater Dental Care",
    "Kestrel Analytics",
    "Hollowbrook Foods",
    "Silverline Insurance",
    "Marlow & Pike Solicitors",
    "Greenfield Packaging",
    "Quayside Brewing Co.",
    "Tidewell Energy",
    "Aldercrest Care Home",
    "St. Oswin's Hospital",
    "Riverside Veterinary Clinic",
    "Fernhill Bakery",
    "Copperleaf Software",
    "Lindqvist & Berg AB",
    "Bäckerei Sonnenkorn",
    "Hafenblick Logistik GmbH",
    "Atelier Rousseau & Fils",
    "Boulangerie des Trois Ponts",
    "Transportes Alcázar",
    "Ferretería La Estrella",
    "Studio Legale Benvenuti",
    "Cantina Valpietra",
    "Drukarnia Wiślanka",
    "Stavební firma Horák",
    "Fjordlys Rederi",
    "Kuusirinne Oy",
    "Nordvik Elektro AS",
    "Padaria Boa Massa",
    "Construtora Jatobá",
    "Estudio Contable Sosa & Ibarra",
    "Sahyadri Infotech",
    "Kaveri Textiles",
    "Sakuragawa Electronics",
    "Hoshino Bento Co.",
    "Wattlebird Constructions",
    "Coral Coast Physio",
    "Bluebell Nurseries",
    "Pennant Street Pharmacy",
    "Harrowgate Call Centre",
    "Oakmere Leisure Centre",
    "Ravenscar Haulage",
    "Thistledown Housing Association",
    "Mapleton Family Practice",
    "Cobalt Ridge Mining",
    "Vireo Health Clinic",
    "Amberly Hotel & Spa",
    "Pinecrest Auto Repairs",
    "Saltmarsh Fisheries",
    "Gilded Spoon Catering",
    "Lumen Bridge Consulting",
    "Slévárna Bílý Potok",
    "Crane & Lowry Accountants",
    "Harbour Lights Nursery",
    "Duskfield Games",
    "Wrenford Library Services",
    "Blackthorn Security",
    "Meadowlark Dairies",
    "Ironbridge Dental Lab",
    "Willowmere Garden Centre",
    "Tern Bay Ferries",
]
UNIVERSITIES = [
    "Eastvale University",
    "Northmoor College",
    "Ravensworth University",
    "Lakeshore Community College",
    "Université de Valmont",
    "Hochschule Auenthal",
    "Universidad del Río Claro",
    "Glenhaven School of Nursing",
    "Ashcombe Institute of Technology",
    "Università di Valdarno Alto",
    "Politechnika Nadwiślańska",
    "Kirkwall Polytechnic",
]
SCHOOLS = [
    "Westbrook Sixth Form",
    "Maplecrest High School",
    "Bramblewood Primary School",
    "Pinewood Academy",
    "Kingsmere Grammar School",
    "St. Brigid's Secondary School",
    "Gymnasium am Lindenhof",
    "Colegio San Telmo",
]

EMAIL_DOMAINS = [
    "gmail.com",
    "outlook.com",
    "yahoo.co.uk",
    "hotmail.com",
    "icloud.com",
    "proton.me",
    "web.de",
    "gmx.de",
    "orange.fr",
    "libero.it",
    "wp.pl",
    "seznam.cz",
    "telia.com",
    "online.no",
    "elisanet.fi",
    "uol.com.br",
    "rediffmail.com",
    "yahoo.co.jp",
    "bigpond.com",
    "mail.com",
    "hotmail.es",
    "gmx.at",
    "zoho.com",
]

# ---------------------------------------------------------------------------------------------------------------
# Distractors for the messages without personal data (public figures, fiction, companies, products, streets
# named without a house number, customer-service numbers, general health talk). None of these is a span.
# ---------------------------------------------------------------------------------------------------------------
CELEBS = [
    "Taylor Swift",
    "Lionel Messi",
    "Beyoncé",
    "Keanu Reeves",
    "Serena Williams",
    "Shah Rukh Khan",
    "Rihanna",
    "Cristiano Ronaldo",
    "Barack Obama",
    "Angela Merkel",
    "Emmanuel Macron",
    "Rafael Nadal",
    "Björk",
    "Greta Thunberg",
    "Bad Bunny",
    "Adele",
    "Zendaya",
    "Lewis Hamilton",
    "Kylian Mbappé",
    "Jacinda Ardern",
    "Pope Francis",
    "King Charles",
    "Dua Lipa",
    "Ed Sheeran",
    "Billie Eilish",
    "Usain Bolt",
    "Ryan Gosling",
    "Meryl Streep",
    "Novak Djokovic",
    "BTS",
]
FICTIONAL = [
    "Sherlock Holmes",
    "Hermione Granger",
    "Frodo Baggins",
    "Elizabeth Bennet",
    "Walter White",
    "Homer Simpson",
    "Darth Vader",
    "Daenerys Targaryen",
    "Katniss Everdeen",
    "Atticus Finch",
    "Jay Gatsby",
    "Lara Croft",
    "Don Quixote",
    "Pippi Longstocking",
    "Naruto",
    "Moomintroll",
    "Captain Haddock",
    "Bridget Jones",
    "Dracula",
    "Paddington Bear",
]
NEWS_COMPANIES = [
    "Zentrix Motors",
    "Halvorsen Foods",
    "Bluepeak Telecom",
    "Orbelia Airlines",
    "Quillstone Bank",
    "Norvana Energy",
    "Pixelgrove",
    "Tandem & Finch Retail",
    "Solvarra Pharma",
    "Glimmer Mobile",
    "Ferrovia Nordica",
    "Brightlane Broadband",
]
PRODUCTS = [
    ("the Lumo X2 phone", 499, 1199),
    ("a 12-pack of AA batteries", 6, 19),
    ("the basic streaming plan", 5, 12),
    ("a pair of Stride 5 trainers", 60, 180),
    ("the Aero 14 laptop", 600, 1900),
    ("a family pizza", 12, 25),
    ("a litre of oat milk", 1, 3),
    ("the new Kettlebot air fryer", 70, 250),
    ("a monthly bus pass", 40, 120),
    ("the Orbit smartwatch", 150, 450),
    ("a flat white", 3, 5),
    ("the deluxe lego castle", 200, 650),
]
FAMOUS_STREETS = [
    "Oxford Street",
    "Fifth Avenue",
    "the Champs-Élysées",
    "Unter den Linden",
    "La Rambla",
    "Nevsky Prospekt",
    "Karl Johans gate",
    "Avenida Paulista",
    "Via del Corso",
    "Nowy Świat",
    "Princes Street",
    "Grafton Street",
    "Broadway",
    "Kärntner Straße",
    "Drottninggatan",
]
GENERAL_HEALTH = [
    "flu season",
    "vitamin D in winter",
    "getting eight hours of sleep",
    "drinking enough water",
    "the new measles vaccine campaign",
    "screen time and kids' eyesight",
    "intermittent fasting",
    "hay fever season",
    "walking 10,000 steps a day",
    "sugar taxes",
    "cold water swimming",
    "the benefits of stretching",
]


def cs_number(r):
    return r.choice(
        [
            f"0800 {d(r, 3)} {d(r, 4)}",
            f"1-800-{d(r, 3)}-{d(r, 4)}",
            f"0345 {d(r, 3)} {d(r, 4)}",
            f"+44 345 {d(r, 3)} {d(r, 4)}",
            f"0900 {d(r, 3)} {d(r, 3)}",
            f"1300 {d(r, 3)} {d(r, 3)}",
        ]
    )


def price(r, lo, hi):
    n = r.randint(lo, hi)
    return r.choice(
        [
            f"£{max(n - 1, 1)}.99",
            f"${n}",
            f"€{n},{r.choice(['00', '49', '95', '99'])}",
            f"{n * 12} kr",
            f"${n}.{r.choice(['00', '50', '99'])}",
        ]
    )


# ---------------------------------------------------------------------------------------------------------------
# Templates with personal data. Slots: NAME/FIRST/FULL/TITLED (+"2" for a second person, +"_M"/"_F" for gender),
# ADDR, EMAIL, PHONE, IBAN, CARD, COND, MED, SYM, TREAT, DEBT, SAVINGS, SALARY, EMP, SCHOOL, UNI (+"2" where needed).
# ---------------------------------------------------------------------------------------------------------------
PII_TEMPLATES = [
    # names
    "hi, my name is {FULL} and i need help resetting my password.",
    "my neighbour {NAME} keeps parking across our driveway, how do i ask them to stop without a fight?",
    "can you write a birthday message for my sister {FIRST_F}? she's turning 30 on friday.",
    "hey im {FIRST}, nice to meet u lol",
    "please address the letter to {FULL}.",
    "my boss {NAME} wants the whole report redone by monday.",
    "my grandmother {FULL_F} passed away last month and i have to write the eulogy.",
    "{FIRST} and i broke up yesterday and idk what to do now.",
    "write a cover letter for me and sign it {FULL}.",
    "my landlord {NAME} still hasn't returned the deposit.",
    "ok so {FIRST} from my class keeps copying my homework, should i tell the teacher?",
    "congrats to {FULL} for finishing the marathon in under 4 hours!",
    "my son's teacher, {TITLED}, says he's falling behind in maths.",
    "can u translate this text for {FIRST}? they only read spanish",
    "the booking is under {FULL}, two adults and one child.",
    "my flatmate {NAME} never chips in for groceries, how do i bring it up?",
    "shoutout to {NAME} for helping me move house this weekend",
    "i'm writing on behalf of my father, {FULL_M}, who can't use a computer.",
    "me and {FIRST2} are planning a surprise party for {FIRST}, any ideas?",
    "pls remind me to call {FIRST} tmrw at 10",
    "my ex {NAME} keeps texting me at 3am, how do i block them on whatsapp?",
    "i need a reference letter for {FULL_F}, who was our nanny for three years.",
    "who should be my best man, {FIRST_M} or {FIRST2_M}?",
    "tell {FIRST} i said thx for the lift home.",
    "my mother-in-law {FULL_F} is staying with us for two weeks, send help",
    "the parcel was signed for by {NAME}, but nobody here has that name.",
    "my daughter {FIRST_F} wants to quit piano, should i let her?",
    "i'm trying to find my old school friend {FULL}, we lost touch around 2009.",
    "hey it's {FIRST} again, forgot to ask one more thing",
    "dear {TITLED}, thank you for your patience with my son this term.",
    "can you make a seating plan? {FULL} can't sit next to {FULL2}.",
    "my colleague {NAME} takes credit for all my work, what do i do",
    "write a wedding toast for my brother {FIRST_M} and his fiancée {FIRST2_F}.",
    "my stepdad {FULL_M} wants to adopt me officially, how does that work?",
    "{FULL} is the name on the lease, not mine.",
    "the babysitter, {NAME}, is coming at 6 so we can go out.",
    "my cousin {FIRST} is getting married in june and i'm the maid of honour!!",
    # addresses
    "my address is {ADDR}.",
    "please send the replacement to {ADDR}.",
    "just moved into {ADDR} and the wifi still isn't set up",
    "can you help me write a noise complaint? i live at {ADDR} and the people upstairs party every night.",
    "deliver to {ADDR}, if i'm out leave it with next door",
    "{NAME} lives at {ADDR}, is that inside the catchment area for the primary school?",
    "party at mine this sat, {ADDR}, from 8pm!!",
    "new home address: {ADDR}",
    "pls update my billing address to {ADDR}",
    "i grew up at {ADDR} and want to write a poem about that house.",
    "we live at {ADDR}, is our street in a flood zone?",
    "send the invoice to {FULL}, {ADDR}.",
    "the ambulance went to the wrong house, my mum lives at {ADDR}.",
    "my grandma's house at {ADDR} needs a new boiler before winter.",
    "how long does it take to walk from my flat at {ADDR} to the nearest train station?",
    "ship it to {ADDR} thx",
    "i rent a room at {ADDR} and the landlord wants 3 months upfront, is that legal?",
    "write to the council about the broken streetlight outside my house, {ADDR}.",
    "the kids stay with their dad at {ADDR} every other weekend.",
    "return address: {FULL}, {ADDR}",
    "someone broke into our house at {ADDR} last night and took the car keys.",
    "format this as a letter header: {FULL}, {ADDR}, {PHONE}",
    "what documents do i need to register {ADDR} as my main residence?",
    "pick me up from {ADDR} at 7 pls",
    "my uncle {FULL_M} is selling his flat at {ADDR}, how do we value it?",
    "can u check the bin collection day for {ADDR}? that's my place",
    "i'm {FULL} and i live at {ADDR}, writing to dispute a parking fine.",
    "post the keys back to me at {ADDR} when ur done",
    "my new place is {ADDR}, come visit!",
    "the water has been off since this morning at my flat, {ADDR}, who do i call?",
    "we're hosting christmas at my parents' place this year, {ADDR}.",
    "the court letter went to my old flat at {ADDR}, does it still count?",
    "post for {FULL2} keeps arriving at my house, {ADDR}, but they moved out ages ago.",
    "my daughter {FIRST_F} is staying with her grandparents at {ADDR} over the summer.",
    # emails
    "my email is {EMAIL}.",
    "you can reach me at {EMAIL} if anything changes.",
    "pls send the receipt to {EMAIL}",
    "i can't log in with {EMAIL}, it says no account exists.",
    "cc {FIRST} on it, their email is {EMAIL}",
    "forward the photos to {EMAIL} when u get a chance",
    "someone is sending spam from {EMAIL}, which is my old address.",
    "change my contact email from {EMAIL} to {EMAIL2} please.",
    "my teacher said to email {TITLED} at {EMAIL} about the school trip.",
    "write a short reply to {FIRST} at {EMAIL} saying i accept the job.",
    "i got a weird message on {EMAIL} asking for my password, is it phishing?",
    "signup email: {EMAIL}",
    "{FULL} ({EMAIL}) is the best person to ask about the flat.",
    "add {EMAIL} to the family calendar pls, it's my husband's",
    "my gran only checks {EMAIL}, so send the invite there.",
    "does {EMAIL} look professional enough for job applications?",
    "please unsubscribe {EMAIL} from all mailing lists.",
    "hi, {FULL} here, please use {EMAIL} for all correspondence from now on.",
    "i think my account {EMAIL} was hacked, how do i get it back?",
    "send my cv to {FIRST} at {EMAIL}, they said {EMP} is hiring.",
    # phones
    "my number is {PHONE}.",
    "call me on {PHONE} after 6.",
    "text {FIRST} at {PHONE} if ur running late",
    "i keep getting missed calls on {PHONE} from numbers i don't know.",
    "my mobile is {PHONE}, whatsapp is fine too",
    "emergency contact: {FULL}, {PHONE}",
    "save {PHONE} under {FIRST} in my contacts",
    "lost my phone, the number was {PHONE}, how do i block the sim?",
    "my dad's new number is {PHONE}, the old one is dead.",
    "ring {PHONE} and ask for {FIRST}.",
    "best number to reach me: {PHONE}",
    "i'm {FULL}, you can call me at {PHONE} or email {EMAIL}.",
    "whatsapp me on {PHONE} pls, my texts aren't working",
    "can you rewrite my number {PHONE} in international format?",
    "our babysitter {NAME} is on {PHONE} if anything happens.",
    "someone keeps calling me from {PHONE2} and hanging up, my own number is {PHONE}.",
    "give the courier my number, {PHONE}.",
    "my wife's mobile is {PHONE}, call her if i don't answer.",
    "i changed my number to {PHONE}, pls update it on my file.",
    # ibans
    "my iban is {IBAN}.",
    "please refund the money to {IBAN}.",
    "send the rent to {IBAN}, account name {FULL}.",
    "is {IBAN} a valid iban? my banking app keeps rejecting it",
    "pay your share into my account {IBAN} pls, thx",
    "my wages should go to {IBAN} from next month on.",
    "i accidentally sent money to {IBAN} instead of my own account, can i get it back?",
    "account holder: {FULL}, IBAN: {IBAN}",
    "my mum's account is {IBAN}, she's paying the deposit.",
    "here are my bank details for the refund: {IBAN}",
    "set up a standing order from my account to {IBAN} on the first of every month.",
    "my old iban {IBAN} is closed, use {IBAN2} instead.",
    "the tenant pays into {IBAN}, which is in my name.",
    "write an email to my landlord {NAME_M} asking him to return the deposit to {IBAN}.",
    # cards
    "my card number is {CARD}.",
    "someone used my card {CARD} to buy stuff online, what do i do?",
    "pls block {CARD}, i lost my wallet on the bus",
    "is {CARD} a visa or a mastercard?",
    "i paid with {CARD} but got charged twice.",
    "use my dad's card {CARD} for the hotel, he said it's fine.",
    "card: {CARD}, name on card: {FULL}",
    "my new credit card {CARD} arrived but it won't activate.",
    "the shop saved my card {CARD} without asking, is that allowed?",
    "can you check if my card {CARD} passes the luhn check?",
    "charge the deposit to my card, {CARD}, please.",
    "i typed {CARD} into a dodgy website, am i screwed?",
    # health
    "i was diagnosed with {COND} last year and i'm still adjusting.",
    "i've been on {MED} for about six months.",
    "my mum has {COND_F} and i'm her main carer.",
    "i've had {SYM} for three days, should i see a doctor?",
    "i'm booked in for {TREAT} next week and i'm really nervous.",
    "my son {FIRST_M} has {KCOND}, what sports are safe for him?",
    "can i drink alcohol while i'm on {MED}?",
    "my doctor switched me from {MED} to {MED2}, is that normal?",
    "{FIRST} just finished {TREAT} and is finally home.",
    "how do i tell my manager at {EMP} that i have {COND}?",
    "ever since i got {COND} i can't concentrate at work.",
    "my husband takes {MED} and it makes him really tired.",
    "i've been getting {SYM} since i started {MED}.",
    "my partner {NAME} was just told they have {COND}, how can i support them?",
    "i need a sick note, i've had {SYM} all week.",
    "my 8 year old has had {SYM} since yesterday, is it urgent?",
    "write a message to my team saying i'm off next month for {TREAT}.",
    "i'm living with {COND} and want to start running, any tips?",
    "my dad {FULL_M} is in hospital for {TREAT}, what are the visiting hours usually like?",
    "i stopped taking {MED} cold turkey and feel awful.",
    "does {MED} interact with grapefruit juice? i take it every day",
    "my sister {FIRST_F} found out she has {COND_F} and is scared to tell our parents.",
    "i have {COND} and lately i've also had {SYM}.",
    "the pharmacy ran out of my {MED} again, what can i do?",
    "what should i eat after {TREAT}?",
    "i'm on {MED} for {COND}, can i still fly?",
    "my grandad {FIRST_M} has {COND_M} and keeps forgetting to eat.",
    "{NAME} from work has {COND} and i want to be supportive.",
    "i've had {SYM} ever since {TREAT}.",
    "i take {MED} every morning, is it ok with coffee?",
    "i need to let the school know my kid {FIRST} has {KCOND}.",
    "i'm recovering from {TREAT} and can't lift anything heavy.",
    "my consultant says i need {TREAT}, is it worth getting a second opinion?",
    "ugh, {SYM} again today, third time this week",
    "what jobs can i do with {COND}?",
    "got my results back and it's {COND}. i don't know how to tell my kids.",
    "my wife is on {MED} and has {SYM}, is that a side effect?",
    # finance
    "i've got {DEBT} and no idea how to start paying it off.",
    "i have {SAVINGS}, is that enough to start looking for a house?",
    "i'm on {SALARY}, how much rent can i realistically afford?",
    "my partner has {DEBT} and hasn't told anyone.",
    "we've built up {SAVINGS}, should we overpay the mortgage?",
    "i just found out my dad has {DEBT}, how do i help without enabling him?",
    "they offered me {SALARY}, should i negotiate?",
    "i'm drowning in {DEBT} since i lost my job.",
    "i have {SAVINGS} and want to invest some of it, where do i start?",
    "write a letter to the bank explaining i have {DEBT} and need a payment plan.",
    "my sister {FIRST_F} has {DEBT} and asked me to co-sign for her.",
    "can i still get benefits if i have {SAVINGS}?",
    "after the divorce i was left with {DEBT}.",
    "how long will it take to clear {DEBT} if i pay a bit every month?",
    "i'm on {SALARY} and still can't save anything.",
    "i have {DEBT} and {SAVINGS}, should i use the savings to pay it off?",
    "budget help pls: i'm on {SALARY} and have {DEBT}.",
    "my husband hid {DEBT} from me for two years.",
    "the bailiffs say i have {DEBT}, what are my rights?",
    "is it bad that i only have {SAVINGS} at 35?",
    "my parents have {SAVINGS} and want to help with my deposit.",
    "i have {DEBT}, will it show up on my credit file?",
    "our tenant {FULL} has {DEBT} with us and hasn't paid in months.",
    "my gran left me {SAVINGS}, what do i do with it?",
    "i'm a single parent on {SALARY} with {DEBT}, any advice?",
    "is {SALARY} good for a junior developer? that's what i'm on",
    "we live at {ADDR} and have {DEBT}, can the council help?",
    "can u check my payslip from {EMP}? it says {SALARY} but i was promised more.",
    # employers and places of study
    "i work at {EMP} as a warehouse supervisor.",
    "just got a job offer from {EMP}!!",
    "my manager at {EMP} won't approve my annual leave.",
    "i study at {UNI} and the library closes way too early.",
    "been at {EMP} 6 yrs and never had a raise",
    "how do i resign from {EMP} without burning bridges?",
    "{FIRST} works at {EMP} too, small world",
    "i work nights at {EMP} and the shifts are killing me.",
    "my dad got laid off from {EMP} after 20 years.",
    "i'm in my second year at {UNI} doing chemistry.",
    "write a linkedin post saying i'm starting at {EMP} on monday.",
    "can {EMP} see my personal messages on the work laptop?",
    "i'm an intern at {EMP} and they don't pay me, is that legal?",
    "my wife {FIRST_F} teaches at {SCHOOL}.",
    "i got into {UNI}!!! starting in september",
    "i'm leaving {EMP} for a job at {EMP2}, how do i tell my team?",
    "my son {FIRST_M} dropped out of {UNI}, how do i talk to him about it?",
    "{FULL} is my line manager at {EMP}.",
    "i've been a cleaner at {EMP} for two years on a zero-hours contract.",
    "help me write my exit interview answers for {EMP}",
    "hr at {EMP} lost my payslips again",
    "i do weekend shifts at {EMP} while studying at {UNI}.",
    "my brother got fired from {EMP} for being late twice.",
    "is it ok to put {EMP} on my cv if i only worked there 3 months?",
    "our team at {EMP} is getting restructured and i'm scared",
    "i teach at {SCHOOL} and the class sizes are ridiculous.",
    "my mum has worked at {EMP} since before i was born.",
    "i'm a phd student at {UNI} and my supervisor ignores me.",
    "i start my apprenticeship at {EMP} next week, what should i wear?",
    # mixed records and requests
    "name: {FULL}, email: {EMAIL}, phone: {PHONE}",
    "{FULL}, {ADDR}, {EMAIL}",
    "i'm {FULL}, i work at {EMP} and my number is {PHONE}.",
    "contact {NAME} on {PHONE} or {EMAIL} about the flat viewing.",
    "please send the contract to {EMAIL} and the paper copy to {ADDR}.",
    "for the refund: {FULL}, iban {IBAN}, email {EMAIL}",
    "bill {CARD} and deliver to {ADDR}",
    "hi {FIRST}, can you pay the deposit into {IBAN} and text me on {PHONE} when it's done?",
    "i'm on {SALARY} at {EMP} and i have {DEBT}.",
    "i work at {EMP} and just got diagnosed with {COND}, do i have to tell hr?",
    "i'm off work from {EMP} with {SYM}, can they ask for a doctor's note?",
    "send my sick note to hr at {EMP}, i'm having {TREAT} on tuesday.",
    "i've got {DEBT} on {CARD}, can i move it to a 0% card?",
    "my card {CARD} is maxed out and i have {DEBT}.",
    "i keep {SAVINGS} in the account {IBAN}, is it protected if the bank goes under?",
    "my sister {FULL_F} has {COND_F} and can't work at {EMP} anymore.",
    "i'm {FIRST}, a teacher at {SCHOOL}, and i live at {ADDR}.",
    "new starter form: {FULL}, {ADDR}, {PHONE}, {IBAN}",
    "update my payroll details at {EMP}: {IBAN}",
    "{FULL} from {EMP} keeps emailing me at {EMAIL} about a debt i don't owe.",
    "please send {FIRST}'s prescription for {MED} to {ADDR}.",
    "my gp surgery needs my number, it's {PHONE}, and my email, {EMAIL}.",
    "patient: {FULL}, {ADDR}, currently taking {MED}.",
    "i'm {FULL_F}, 29, i have {COND} and i'm on {MED}, is it safe to get pregnant?",
    "my employer {EMP} pays me {SALARY}, but the rent at {ADDR} takes most of it.",
    "refund my card {CARD} or send the money to {IBAN}, whichever is faster.",
    "{FIRST} here, my new email is {EMAIL} and my new address is {ADDR}.",
    "my carer {NAME} can be reached on {PHONE} if i don't pick up.",
    "i'm {FULL}, a student at {UNI}, and i have {DEBT}.",
    "the clinic at {ADDR} wants me to come in for {TREAT}, can i bring someone?",
    "my employer is {EMP}, my salary is paid into {IBAN}.",
    "order for {FULL}: card {CARD}, delivery to {ADDR}, contact {PHONE}",
    "i gave {EMP} my card {CARD} for a deposit and they charged it twice",
    "my boyfriend {FIRST_M} found out he has {COND_M} and he's on {MED} now.",
    "dear {TITLED}, my account {IBAN} shows {SAVINGS} but the app says zero.",
    "cc my wife at {EMAIL2}, and my email is {EMAIL}.",
    "i'm a driver for {EMP}, on {SALARY}, with {SAVINGS}.",
    "my mum {FULL_F} has {COND_F}, her number is {PHONE} if the nurse needs to call.",
    "please mail the test results for {FULL} to {ADDR}, not to {EMAIL}.",
    "hey {FIRST}, here's the card for the flights: {CARD}. don't lose it lol",
    "i've had {SYM} since starting at {EMP}, could it be the chemicals there?",
    "email {EMAIL} or call {PHONE}, ask for {FIRST}.",
    "i work for {EMP}, on {SALARY}, and i just got a letter saying i have {DEBT}.",
    "the refund for {FULL} should go to card {CARD}, not {IBAN}.",
    "write a message to {FIRST} at {EMAIL} saying i can't make it, i'm having {TREAT}.",
    "billing: {FULL}, {ADDR}, card {CARD}",
    "my friend {FIRST} has {DEBT} and was just let go from {EMP}.",
    "tell {TITLED} at the surgery that i'm now on {MED} and have {SYM}.",
    "i use {EMAIL} for work at {EMP}, can they read my private messages?",
    "my landlord {FULL_M} wants the rent in cash, his account {IBAN} is 'closed'.",
    "i'm on {SALARY} but have {DEBT}, and my savings are gone.",
    # payment, contact and money details together
    "my card {CARD} was declined, can you send the invoice to {EMAIL} instead?",
    "refund to my iban {IBAN} pls, my phone is {PHONE} if u need it",
    "i lost my wallet, block {CARD} and call me back on {PHONE}.",
    "the direct debit comes out of {IBAN} but the bank says i have {DEBT}.",
    "payment details: card {CARD}, backup iban {IBAN}.",
    "text me on {PHONE} once the money hits {IBAN}.",
    "pls send the payment link to {EMAIL}, my card is {CARD}.",
    "i bought a sofa on {CARD} and now i'm stuck with {DEBT}.",
    "my bank account {IBAN} has {SAVINGS} and i want to close it.",
    "the fraud team called me on {PHONE} about my card {CARD}, is that legit?",
    "can you write to {EMAIL} asking them to pay the refund into my account {IBAN}?",
    "registered email {EMAIL}, phone {PHONE}, card {CARD}",
    "my son {FIRST_M} used my card {CARD} to buy game skins without asking.",
    "tenant contact: {PHONE}, rent paid into {IBAN}.",
    "if the card {CARD} fails, take it from my account {IBAN}.",
    "i got a text on {PHONE} saying my card {CARD} is frozen, scam?",
    "pay my invoice into {IBAN} and send the remittance to {EMAIL}.",
    "my payslip says {SALARY} and it all goes into {IBAN}.",
    "i'm on {SALARY} and put everything on {CARD}, which is bad i know.",
    "the gym keeps charging {CARD} even though i cancelled, my email is {EMAIL}.",
    "sign me up with {EMAIL} and bill my card {CARD} monthly.",
    "my ex still has access to {IBAN}, our joint account with {SAVINGS}.",
    "my mum {FULL_F} wants her pension paid into {IBAN}.",
    "someone took out a loan in my name, the statement went to {EMAIL} and shows {DEBT}.",
    "call me on {PHONE} to confirm the transfer to {IBAN}.",
    "virtual card for my subscriptions: {CARD}",
    "i have {DEBT} on my card {CARD}, should i get a balance transfer?",
    "my landlady's number is {PHONE} and the rent goes to {IBAN}.",
    "'your card {CARD} has been charged, receipt sent to {EMAIL}' ... is this email real?",
    "update my direct debit to {IBAN}, contact number {PHONE}.",
    "the hotel wants a card for the deposit, use mine: {CARD}.",
    "i run a small shop and my own account {IBAN} is overdrawn, i have {DEBT}.",
    "my daughter {FIRST_F} sent her card details {CARD} to a stranger online!!",
    "card {CARD}, billing phone {PHONE}, billing email {EMAIL}",
    "i'm {FULL}, please reverse the charge on my card {CARD}.",
    "set up my phone banking on {PHONE}, account {IBAN}.",
    "can u split the bill? i paid with {CARD}, send ur half to {IBAN}",
    "i owe my brother money, his iban is {IBAN} and his number {PHONE}.",
    "my savings account {IBAN} shows {SAVINGS}, but i expected more interest.",
    "the subscription on my card {CARD} renews every month, can i stop it from {EMAIL}?",
    "send the deposit back to {IBAN}, not to my card {CARD}, it expired.",
    "my old number {PHONE} is still linked to {EMAIL}, how do i change it?",
    "the lender says i have {DEBT} and keeps ringing me on {PHONE}.",
    "charge my card {CARD} for the course fees at {UNI}.",
    "my employer {EMP} pays into {IBAN} but this month nothing arrived.",
    "my carer's details: {FULL}, {PHONE}, {EMAIL}",
    "i'm on {SALARY} and the lender wants proof, can i send it from {EMAIL}?",
    "full card number {CARD}, please cancel it asap",
    "pls whatsapp {PHONE} the iban {IBAN}, it's for {FIRST}.",
    "he paid me back into {IBAN}, so i have {SAVINGS} now.",
    "my partner's card {CARD} got cloned at a petrol station.",
    "the school trip payment went through on my card {CARD}, receipt to {EMAIL} pls.",
    "for the flat deposit: {IBAN}, ref {FULL}, questions to {PHONE}.",
    "my nan's card {CARD} was used in another country, she's 82.",
    "my parents are at {ADDR} and their landline is {PHONE}.",
    "the new bank card for {IBAN} should go to {ADDR}.",
    "i've moved from {ADDR} to {ADDR2}, please update my records.",
]

# ---------------------------------------------------------------------------------------------------------------
# Templates without personal data (same registers, with distractors).
# Slots: CELEB, CELEB2, FICT, CO, PRODUCT, PRICE, STREET, STREET2, CSNUM, GENHEALTH.
# ---------------------------------------------------------------------------------------------------------------
NONE_TEMPLATES = [
    "did u see {CELEB} at the awards last night??",
    "write a short poem about {FICT} in the style of a pirate.",
    "{CO} just announced 400 job cuts, the share price dropped 8%.",
    "is {PRODUCT} really worth {PRICE}?",
    "go straight down {STREET} and take the second left after the bakery.",
    "{CO}'s customer service line is {CSNUM}, open 9 to 5 on weekdays.",
    "what does the research actually say about {GENHEALTH}?",
    "who would win in a fight, {FICT} or {FICT2}?",
    "{CELEB} is coming to my city next month and tickets sold out in minutes lol",
    "summarise the plot of the book where {FICT} first appears.",
    "{CO} reported a quarterly loss of $120 million, is that bad for the sector?",
    "{PRODUCT} is down to {PRICE} in the sale, shall i grab it?",
    "the bus doesn't stop on {STREET} anymore because of the roadworks.",
    "if the app crashes again, call {CO} on {CSNUM} and ask for a refund.",
    "tbh i think all the fuss about {GENHEALTH} is overhyped",
    "can you explain why {CELEB} retired so suddenly?",
    "how old was {CELEB} at the start of their career?",
    "write a fan letter to {FICT}, make it funny.",
    "the ceo of {CO} stepped down after the data breach scandal.",
    "why does {PRODUCT} cost {PRICE} here but way less online?",
    "meet me at the corner of {STREET} and {STREET2}, near the big fountain.",
    "the helpline for {CO} is {CSNUM}, but they never pick up.",
    "any good podcasts about {GENHEALTH}?",
    "{CELEB} and {CELEB2} are collaborating on a new project, apparently.",
    "is {FICT} a good role model for teenagers? discuss.",
    "{CO} is opening a new factory and hiring 2,000 people next year.",
    "found {PRODUCT} for {PRICE}, is that a good deal or a scam?",
    "parking on {STREET} is a nightmare on saturdays",
    "you can reach {CO} support on {CSNUM} or through the chat on their site.",
    "my teacher keeps going on about {GENHEALTH}, is it actually important?",
    "what's the best thing {CELEB} has ever done, in ur opinion?",
    "draw {FICT} as a cat pls",
    "{CO} was fined by the regulator for misleading adverts.",
    "compare {PRODUCT} at {PRICE} with the cheaper model.",
    "the parade goes along {STREET} and ends at the main square.",
    "their number is on the website, {CSNUM}, for {CO} orders only.",
    "there was a long segment about {GENHEALTH} on the radio this morning.",
    "ngl {CELEB}'s new haircut is a choice",
    "write a diary entry as {FICT} on a rainy monday.",
    "{CO} and {CO2} are merging, what happens to their customers?",
    "{PRODUCT} went up from {PRICE} to even more this year, inflation is wild",
    "there's a new coffee place on {STREET}, has anyone tried it?",
    "rang {CO} on {CSNUM} and waited 45 minutes on hold.",
    "what's the latest advice on {GENHEALTH}?",
    "{CELEB} donated to a children's hospital, that's nice to see.",
    "is {FICT} based on a real person?",
    "{CO} recalled a batch of products after safety complaints.",
    "the shop wants {PRICE} for {PRODUCT}, that's daylight robbery",
    "the marathon route closes {STREET} from 7am to 2pm on sunday.",
    "{CO} changed their support number to {CSNUM}, update the poster in the office.",
    "kids' doctors keep talking about {GENHEALTH} these days.",
    "what did {CELEB} say in that interview everyone is talking about?",
    "rank the villains: {FICT}, {FICT2} and the witch from narnia.",
    "{CO} hit a record profit of €3.1 billion this year.",
    "honestly {PRODUCT} at {PRICE} is a bargain compared to last year.",
    "tourists always get lost between {STREET} and the station.",
    "{CO}'s press office can be reached at {CSNUM}.",
    "can you make a poster about {GENHEALTH} for the office kitchen?",
    "i met someone who looks exactly like {CELEB} at the gym lol",
    "my kid wants to dress up as {FICT} for halloween, any costume ideas?",
]


# ---------------------------------------------------------------------------------------------------------------
# Engine
# ---------------------------------------------------------------------------------------------------------------
class Deck:
    """Draws every item of a list once (in a seeded random order) before repeating any."""

    def __init__(self, items, rng):
        self.items = list(items)
        self.rng = rng
        self.pool = []

    def draw(self):
        if not self.pool:
            self.pool = list(self.items)
            self.rng.shuffle(self.pool)
        return self.pool.pop()


SLOT_RE = re.compile(r"\{([A-Z]+)(2?)(?:_([MF]))?\}")
PERSON_SLOTS = ("NAME", "FIRST", "FULL", "TITLED")
SLOT_TYPE = {
    "NAME": "REAL_NAME",
    "FIRST": "REAL_NAME",
    "FULL": "REAL_NAME",
    "TITLED": "REAL_NAME",
    "ADDR": "ADDRESS",
    "EMAIL": "EMAIL",
    "PHONE": "PHONE",
    "IBAN": "IBAN",
    "CARD": "CREDIT_CARD",
    "COND": "HEALTH",
    "KCOND": "HEALTH",
    "MED": "HEALTH",
    "SYM": "HEALTH",
    "TREAT": "HEALTH",
    "DEBT": "FINANCE",
    "SAVINGS": "FINANCE",
    "SALARY": "FINANCE",
    "EMP": "EMPLOYER",
    "SCHOOL": "EMPLOYER",
    "UNI": "EMPLOYER",
}
TYPES = ["REAL_NAME", "ADDRESS", "EMAIL", "PHONE", "IBAN", "CREDIT_CARD", "HEALTH", "FINANCE", "EMPLOYER"]


class Generator:
    def __init__(self, seed):
        self.r = random.Random(seed)
        r = self.r
        self.cultures = Deck(list(NAMES), r)
        self.first = {(c, g): Deck(NAMES[c][0 if g == "m" else 1], r) for c in NAMES for g in "mf"}
        self.last = {c: Deck(NAMES[c][2], r) for c in NAMES}
        self.addr_country = Deck(list(ADDRESS_FORMATS), r)
        self.streets = {c: Deck(STREETS[c], r) for c in STREETS}
        self.phone_country = Deck(list(PHONE_FORMATS), r)
        self.cond = {
            None: Deck(CONDITIONS, r),
            "f": Deck(CONDITIONS + FEMALE_CONDITIONS * 2, r),
            "m": Deck(CONDITIONS + MALE_CONDITIONS * 2, r),
            "kid": Deck(CHILD_CONDITIONS, r),
        }
        self.med, self.sym, self.treat = (Deck(x, r) for x in (MEDICATIONS, SYMPTOMS, TREATMENTS))
        self.emp, self.school, self.uni = (Deck(x, r) for x in (EMPLOYERS, SCHOOLS, UNIVERSITIES))
        self.domains = Deck(EMAIL_DOMAINS, r)
        self.debt, self.savings, self.salary = (Deck(x, r) for x in (DEBT_FORMS, SAVINGS_FORMS, SALARY_FORMS))
        self.celebs, self.fict, self.cos = Deck(CELEBS, r), Deck(FICTIONAL, r), Deck(NEWS_COMPANIES, r)
        self.products, self.fstreets, self.genhealth = (
            Deck(PRODUCTS, r),
            Deck(FAMOUS_STREETS, r),
            Deck(GENERAL_HEALTH, r),
        )

    # --- values -------------------------------------------------------------------------------------------------
    def person(self, gender=None):
        r = self.r
        g = gender or r.choice("mf")
        c = self.cultures.draw()
        first = self.first[(c, g)].draw()
        last = self.last[c].draw()
        if "|" in last:
            last = last.split("|")[0 if g == "m" else 1]
        return {"first": first, "last": last, "gender": g}

    def name_form(self, p, slot):
        r = self.r
        title = r.choice(TITLES[p["gender"]])
        if slot == "FIRST":
            return p["first"]
        if slot == "TITLED":
            return f"{title} {p['last']}"
        if slot == "FULL":
            return f"{title} {p['first']} {p['last']}" if r.random() < 0.12 else f"{p['first']} {p['last']}"
        x = r.random()
        if x < 0.4:
            return p["first"]
        if x < 0.78:
            return f"{p['first']} {p['last']}"
        if x < 0.88:
            return f"{title} {p['last']}"
        if x < 0.94:
            return f"{title} {p['first']} {p['last']}"
        return f"{p['first']} {p['last'][0]}."

    def email(self, p=None):
        r = self.r
        p = p or self.person()
        f, last = ascii_fold(p["first"]), ascii_fold(p["last"])
        local = r.choice(
            [
                f"{f}.{last}",
                f"{f}{last}",
                f"{f[0]}.{last}",
                f"{f}_{last}",
                f"{f}{r.randint(1, 99)}",
                f"{last}.{f}",
                f"{f}.{last}{r.randint(70, 99)}",
                f"{f[0]}{last}{r.randint(1, 9)}",
                f"{f}-{last}",
                f"{last}{f[0]}",
            ]
        )
        return f"{local}@{self.domains.draw()}"

    def address(self):
        c = self.addr_country.draw()
        return ADDRESS_FORMATS[c](self.r, self.streets[c].draw(), self.r.random() < 0.2)

    def phone(self):
        return self.r.choice(PHONE_FORMATS[self.phone_country.draw()])(self.r)

    def value(self, slot, idx, gender, persons, ctx):
        r = self.r
        if slot in PERSON_SLOTS:
            key = idx or "1"
            if key not in persons:
                persons[key] = self.person(gender)
            return self.name_form(persons[key], slot)
        if slot == "EMAIL":
            key = idx or "1"
            if key in persons and r.random() < 0.85:
                return self.email(persons[key])
            return self.email()
        table = {
            "ADDR": self.address,
            "PHONE": self.phone,
            "IBAN": lambda: make_iban(r),
            "CARD": lambda: make_card(r),
            "COND": self.cond[gender].draw,
            "KCOND": self.cond["kid"].draw,
            "MED": self.med.draw,
            "SYM": self.sym.draw,
            "TREAT": self.treat.draw,
            "DEBT": lambda: make_fin(r, [self.debt.draw()]),
            "SAVINGS": lambda: make_fin(r, [self.savings.draw()]),
            "SALARY": lambda: make_fin(r, [self.salary.draw()]),
            "EMP": self.emp.draw,
            "SCHOOL": self.school.draw,
            "UNI": self.uni.draw,
            "CELEB": self.celebs.draw,
            "FICT": self.fict.draw,
            "CO": self.cos.draw,
            "PRODUCT": lambda: ctx["product"][0],
            "PRICE": lambda: price(r, *ctx["product"][1:]),
            "STREET": self.fstreets.draw,
            "CSNUM": lambda: cs_number(r),
            "GENHEALTH": self.genhealth.draw,
        }
        return table[slot]()

    # --- sentences ----------------------------------------------------------------------------------------------
    def fill(self, template):
        genders = {}
        for m in SLOT_RE.finditer(template):
            if m.group(1) in PERSON_SLOTS and m.group(3):
                genders[m.group(2) or "1"] = m.group(3).lower()
        persons = {k: self.person(g) for k, g in genders.items()}
        ctx = {"product": self.products.draw()} if "{PRODUCT}" in template else {}
        text, spans, pos, used = "", [], 0, {}
        for m in SLOT_RE.finditer(template):
            slot, idx, gender = m.groups()
            text += template[pos : m.start()]
            for _ in range(20):  # the same slot kind twice in one sentence gets two different values
                val = self.value(slot, idx, gender and gender.lower(), persons, ctx)
                if val not in used.get((slot, idx), ()) and all(
                    val != v for vs in used.values() for v in vs if slot not in PERSON_SLOTS
                ):
                    break
            used.setdefault((slot, idx), []).append(val)
            start = len(text)
            text += val
            if slot in SLOT_TYPE:
                spans.append([start, len(text), SLOT_TYPE[slot]])
            pos = m.end()
            rest = template[pos:]
            if val.endswith(".") and rest.startswith("."):  # "Co." at the end of a sentence
                pos += 1
            elif val.endswith("s") and rest.startswith("'s") and slot == "CO":  # "Motors'" not "Motors's"
                pos += 2
                text += "'"
        text += template[pos:]
        return text, spans


def template_types(t):
    return sorted({SLOT_TYPE[m.group(1)] for m in SLOT_RE.finditer(t) if m.group(1) in SLOT_TYPE})


def build():
    gen = Generator(SEED)
    r = gen.r
    pii = [(f"t{i + 1:03d}", t) for i, t in enumerate(PII_TEMPLATES)]
    none = [(f"t{len(pii) + i + 1:03d}", t) for i, t in enumerate(NONE_TEMPLATES)]
    for tid, t in pii:
        assert template_types(t), (tid, t)
    for tid, t in none:
        assert not template_types(t), (tid, t)

    def plan(templates, total, n_two, n_three, other=None, other_share=0.0):
        """Every template once as a message of its own, the rest filled at random; some messages joined."""
        n_single = total - n_two - n_three
        assert n_single >= len(templates)
        singles = list(templates)
        r.shuffle(singles)
        deck = Deck(templates, r)
        singles += [deck.draw() for _ in range(n_single - len(templates))]
        msgs = [[s] for s in singles]
        for k in [2] * n_two + [3] * n_three:
            parts = [deck.draw()]
            for _ in range(k - 1):
                parts.append(r.choice(other) if other and r.random() < other_share else deck.draw())
            r.shuffle(parts)
            msgs.append(parts)
        return msgs

    plans = plan(pii, N_PII, 96, 44, other=none, other_share=0.25) + plan(none, N_NONE, 30, 14)
    r.shuffle(plans)
    out = []
    for parts in plans:
        text, spans = "", []
        for tid, t in parts:
            s_text, s_spans = gen.fill(t)
            if text:
                if text[-1] not in ".!?":
                    text += "."
                text += " "
            off = len(text)
            text += s_text
            spans += [[a + off, b + off, ty] for a, b, ty in s_spans]
        out.append({"text": text, "spans": sorted(spans), "template": "+".join(tid for tid, _ in parts)})
    return out, pii, none


# ---------------------------------------------------------------------------------------------------------------
# Self-checks
# ---------------------------------------------------------------------------------------------------------------
def iban_ok(v):
    s = v.replace(" ", "")
    moved = s[4:] + s[:4]
    return int("".join(str(int(c, 36)) for c in moved)) % 97 == 1


def luhn_ok(v):
    s = re.sub(r"[ -]", "", v)
    return s.isdigit() and luhn_digit(s[:-1]) == s[-1]


def check(rows, pii, none):
    counts = {t: 0 for t in TYPES}
    values = {t: set() for t in TYPES}
    for row in rows:
        text, spans = row["text"], row["spans"]
        last_end = 0
        for a, b, ty in spans:
            v = text[a:b]
            assert a >= last_end and v and v == v.strip(), row
            last_end = b
            counts[ty] += 1
            values[ty].add(v)
            if ty == "IBAN":
                assert iban_ok(v), v
            if ty == "CREDIT_CARD":
                assert luhn_ok(v), v
    n_with = sum(1 for row in rows if row["spans"])
    assert len(rows) == N_PII + N_NONE and n_with == N_PII, n_with
    per_type_templates = {t: sum(1 for _, tt in pii if t in template_types(tt)) for t in TYPES}
    for t in TYPES:
        assert per_type_templates[t] >= 45, (t, per_type_templates[t])
        need = 60 if t in ("REAL_NAME", "ADDRESS", "HEALTH", "FINANCE", "EMPLOYER") else 30
        assert len(values[t]) >= need, (t, len(values[t]))
    firsts = sum(len(v[0]) + len(v[1]) for v in NAMES.values())
    lasts = sum(len(v[2]) for v in NAMES.values())
    streets = sum(len(v) for v in STREETS.values())
    health = len(
        set(CONDITIONS + FEMALE_CONDITIONS + MALE_CONDITIONS + CHILD_CONDITIONS + MEDICATIONS + SYMPTOMS + TREATMENTS)
    )
    assert firsts >= 150 and lasts >= 100 and len(NAMES) >= 15 and streets >= 80 and health >= 100
    assert len(ADDRESS_FORMATS) >= 12 and len(PHONE_FORMATS) >= 8 and len(IBAN_COUNTRIES) >= 6
    assert len(EMPLOYERS) + len(SCHOOLS) + len(UNIVERSITIES) >= 60
    # distractors must not share a word with any private name
    name_words = {w for v in NAMES.values() for lst in v for n in lst for part in n.split("|") for w in part.split()}
    for x in CELEBS + FICTIONAL:
        assert not (set(x.split()) & name_words), x
    joined = sum(1 for row in rows if "+" in row["template"])
    return counts, values, per_type_templates, joined


def main():
    rows, pii, none = build()
    counts, values, per_type_templates, joined = check(rows, pii, none)
    with open(OUT, "w", encoding="utf-8", newline="\n") as fh:
        for row in rows:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    print(f"wrote {len(rows)} messages to {OUT.name} ({joined} joined)")
    print("spans per type: " + ", ".join(f"{t} {counts[t]}" for t in TYPES))
    print("distinct values: " + ", ".join(f"{t} {len(values[t])}" for t in TYPES))
    print(
        "templates per type: "
        + ", ".join(f"{t} {per_type_templates[t]}" for t in TYPES)
        + f"; none templates {len(none)}"
    )


if __name__ == "__main__":
    main()
