// Names for generated contributors: 250 first names and 350 surnames heard in Guatemala (Spanish and
// Mayan), some with accents, so a name search meets realistic word frequencies.
const split = (s) => s.trim().split(/\s+/);

export const FIRST_NAMES = split(`
Abel Abelardo Abraham Adán Adela Adolfo Adriana Agustín Aída Alba Alberto Alejandra Alejandro Alfonso Alfredo
Alicia Alma Alonso Álvaro Amalia Amanda Amelia Amílcar Ana Anabella Andrea Andrés Ángel Ángela Aníbal Antonia
Antonio Araceli Armando Arnoldo Arturo Aurelio Aurora Axel Baltazar Bárbara Beatriz Benito Benjamín Berta
Blanca Brenda Byron Camila Candelaria Carla Carlos Carmen Carolina Catalina Cecilia Celeste César Christian
Cindy Clara Claudia Concepción Cristina Cristóbal Dalia Damián Daniel Daniela David Débora Delfina Diana Diego
Dolores Domingo Dora Edgar Edith Eduardo Elena Elías Eliseo Elvira Emilia Emilio Enrique Erick Ernesto
Esperanza Estela Esteban Ester Eugenia Eva Evelyn Fabián Federico Felipa Felipe Fernanda Fernando Fidel
Flor Francisca Francisco Gabriel Gabriela Gerardo Gilberto Gladys Gloria Gonzalo Graciela Gregorio Guadalupe
Guillermo Gustavo Héctor Heidi Hilda Hugo Ignacio Inés Irma Isabel Ismael Ixchel Jacinto Jaime Javier Jazmín
Jennifer Jeremías Jesús Joaquín Jorge José Josefa Josué Juan Juana Julia Julián Julio Karen Karina Katherine
Kevin Lázaro Leonel Leticia Lidia Lilian Lorena Lourdes Lucas Lucía Luis Luisa Manuel Marcela Marco Margarita
María Mariano Maribel Marina Mario Marta Martín Mateo Matilde Mauricio Mayra Melvin Micaela Miguel Milagro
Mirna Mónica Nancy Natalia Nelson Nicolás Nidia Noé Norma Octavio Olga Óscar Pablo Patricia Paula Pedro Petrona
Rafael Ramiro Ramón Raquel Raúl Rebeca Reyna Ricardo Roberto Rocío Rodrigo Rogelio Rolando Rosa Rosario Rubén
Rudy Ruth Salvador Samuel Sandra Santiago Santos Sara Sebastián Sergio Silvia Sofía Sonia Susana Tecún Teresa
Tomás Valeria Vanessa Verónica Vicente Víctor Vilma Virginia Walter Wendy Wilson Ximena Yolanda Zoila Zulema
Wenceslao Hermelinda Ixmucané Tziquin Nikté Saqué Balam Itzel Lesbia Baudilio Eusebio Hortensia Filiberto
Anacleto Cipriano Dionisio Eleuterio Florencio Hipólito Leoncio Macario Nicanor Porfirio Secundino Tiburcio
`);

export const SURNAMES = split(`
Aguilar Aguirre Ajanel Ajú Alonzo Alvarado Álvarez Amézquita Arana Arévalo Argueta Arriaga Asturias Ávila Ayala
Azurdia Barrios Batz Bautista Benítez Bol Bonilla Caal Cabrera Cáceres Calderón Camey Campos Cano Canel Cardona
Carranza Carrillo Castañeda Castillo Castro Catalán Cermeño Chávez Chel Chen Chiquín Choc Chocooj Chub Cifuentes
Coc Cojtí Colop Contreras Córdova Coronado Cortez Cruz Cuc Cuéllar Culajay Cux Dávila Delgado Díaz Domínguez
Duarte Echeverría Escobar Espinoza Estrada Fajardo Figueroa Flores Fuentes Gálvez García Girón Godoy Gómez
González Gramajo Guerra Guevara Gutiérrez Guzmán Hernández Herrera Hidalgo Ical Iboy Istupe Ixcot Ixcoy Jiménez
Juárez Lara Leal León Lima Linares López Lorenzo Lucas Luna Maldonado Marroquín Martínez Matías Mazariegos
Medina Mejía Meléndez Méndez Mendoza Menchú Miranda Molina Monroy Monterroso Montenegro Morales Moreno Muñoz
Navarro Ochoa Oliva Orellana Ortega Ortiz Osorio Pacheco Pérez Pineda Pinto Polanco Ponce Portillo Quiché
Quiñónez Quixtán Ramírez Ramos Recinos Reyes Ríos Rivas Rivera Robles Rodas Rodríguez Rojas Romero Rosales
Ruiz Salazar Samayoa Sánchez Sandoval Santizo Santos Sazo Sic Sierra Solares Solís Soto Sosa Tay Tecú Tejada
Toj Toledo Torres Tot Trujillo Tum Tzoc Tzul Urízar Urrutia Valdez Valenzuela Vásquez Vega Velásquez Ventura
Villagrán Villatoro Xicará Xitumul Xol Yat Yoc Zacarías Zamora Zapeta Zelada Zepeda Zúñiga Abac Acabal Achigua
Ajcip Ajpop Alay Ambrocio Anleu Armas Baten Barillas Bamaca Boror Buch Cabnal Cahuec Calel Cap Caxaj Cazali
Chajón Chanchavac Chavajay Chiroy Chitay Choy Chumil Cocón Cojulún Culum Cumes Curruchiche Cutzal Ecoquij
Elel Esquit Galindo Gabriel Guarcas Guoz Hurtarte Ixchop Ixpatá Jocol Lacán Lajuj Larios Loarca Macz Mayén
Mazat Mux Noj Oxlaj Pajarito Patzán Pec Poncio Puac Pu Quej Quemé Quisquiná Raxcacó Sacalxot Sajché Saquic
Sequén Simaj Sipac Sisimit Socop Sontay Suy Tax Telón Tepaz Tiu Tojín Tucux Tuyuc Tzaquitzal Tzunún Us Vail
Vicente Xajil Xec Xinico Xiloj Xuyá Yax Yaxón Yos Yojcom Zet Zunún Aldana Arenales Balcárcel Berganza
Cajas Cano Cifuentes Dardón Echeverría Figueroa Garrido Herrarte Jerez Lemus Monzón Najarro Ordóñez Pérez
Quevedo Recancoj Saravia Tobar Urbina Valle Wong Yanes Zaldaña Alegría Barahona Castellanos Dubón Enríquez
Fión Gaitán Hun Izaguirre Juracán Klee Lainfiesta Mérida Nájera Obregón Paiz Quan Rosal Solórzano Taracena
`);
